/** The Cielo connector joined to the core (ConnectedAcquirer): what the service, the vault and the tests call. */
import type { CieloConfig } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { ConnectorDeps } from '../capabilities.js';
import { ConnectedAcquirer } from '../connected-provider.js';
import { CieloConnector } from './connector.js';

export class CieloProvider extends ConnectedAcquirer {
  constructor(config: CieloConfig, deps: ConnectorDeps & { db: Db }) {
    const connector = new CieloConnector(config, deps);
    super(connector, connector.card, deps.db, deps.clock);
  }
}
