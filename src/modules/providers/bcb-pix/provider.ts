/**
 * The API Pix connector joined to the core (ConnectedProvider): what the
 * service and the tests call. `registerWebhook` is the PSP's subscription
 * (`svc pix register-webhook`).
 */
import type { BcbPixConfig } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { ConnectorDeps } from '../capabilities.js';
import { ConnectedProvider } from '../connected-provider.js';
import type { PixHttpOptions } from './client.js';
import { BcbPixConnector } from './connector.js';

export class BcbPixProvider extends ConnectedProvider {
  constructor(config: BcbPixConfig, deps: ConnectorDeps & { db: Db }, options: PixHttpOptions = {}) {
    super(new BcbPixConnector(config, deps, options), deps.db, deps.clock);
  }

  registerWebhook(): Promise<void> {
    return (this.connector as BcbPixConnector).registerWebhook();
  }
}
