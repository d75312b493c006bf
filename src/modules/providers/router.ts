/**
 * Which connector serves which payment method (PIX_PROVIDER, CARD_PROVIDER,
 * BOLETO_PROVIDER). A method switched off (`disabled`) has no provider: its
 * intents are refused with 422 PAYMENT_METHOD_UNAVAILABLE.
 */
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { DomainError } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Clock } from '../../lib/clock.js';
import { BcbPixProvider } from './bcb-pix/index.js';
import { CieloProvider } from './cielo/index.js';
import type { ChargeMethod, PaymentProvider } from './provider.js';
import { SimulatedProvider } from './simulated/simulated.js';

/** The provider of each method; a method absent here is switched off. */
export type Providers = Partial<Record<ChargeMethod, PaymentProvider>>;

export interface ConnectorDeps {
  db: Db;
  clock: Clock;
  /** Extra trusted CA certificates (PEM) for the provider's server certificate; tests pass their own CA. */
  extraCa?: string;
}

export function buildProviders(config: Pick<Config, 'providers' | 'bcbPix' | 'cielo'>, deps: ConnectorDeps): Providers {
  // One instance per connector: Cielo serving cards and boletos is one client.
  const connectors = new Map<string, PaymentProvider>();
  const connector = (name: string): PaymentProvider => {
    let provider = connectors.get(name);
    if (!provider) {
      if (name === 'simulated') provider = new SimulatedProvider(deps.db, deps.clock);
      else if (name === 'bcb-api-pix') provider = new BcbPixProvider(config.bcbPix!, deps);
      else if (name === 'cielo') provider = new CieloProvider(config.cielo!, deps);
      else throw new Error(`no connector named ${name}`);
      connectors.set(name, provider);
    }
    return provider;
  };
  const providers: Providers = {};
  const choose = (method: ChargeMethod, name: string) => {
    if (name !== 'disabled') providers[method] = connector(name);
  };
  choose('PIX', config.providers.pix);
  choose('CREDIT_CARD', config.providers.card);
  choose('BOLETO', config.providers.boleto);
  return providers;
}

const METHOD_NAMES: Record<ChargeMethod, string> = { PIX: 'Pix', CREDIT_CARD: 'Card', BOLETO: 'Boleto' };

export const methodUnavailable = (method: ChargeMethod): DomainError =>
  new DomainError('PAYMENT_METHOD_UNAVAILABLE', ERRORS.PAYMENT_METHOD_UNAVAILABLE.method({ method: METHOD_NAMES[method] }), [
    { field: 'paymentMethod', message: PROBLEMS.switchedOff({ method }) },
  ]);
