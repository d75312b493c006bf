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
import { BcbPixConnector } from './bcb-pix/index.js';
import { CapabilityNotSupported, type Connector, type ConnectorDeps } from './capabilities.js';
import { CieloConnector } from './cielo/index.js';
import { ConnectedAcquirer, ConnectedProvider } from './connected-provider.js';
import type { CardAcquirer, ChargeMethod, PaymentProvider } from './provider.js';
import { SimulatedProvider } from './simulated/simulated.js';

/** The provider of each method, typed by what the method needs; a method absent here is switched off. */
export interface Providers {
  PIX?: PaymentProvider;
  BOLETO?: PaymentProvider;
  CREDIT_CARD?: CardAcquirer;
}

/** A real connector by its configured name: adding one is a line here. */
function connectorNamed(name: string, config: Pick<Config, 'bcbPix' | 'cielo'>, deps: ConnectorDeps): Connector {
  if (name === 'bcb-api-pix') return new BcbPixConnector(config.bcbPix!, deps);
  if (name === 'cielo') return new CieloConnector(config.cielo!, deps);
  throw new Error(`no connector named ${name}`);
}

/**
 * The providers the configuration names. A method whose connector lacks its
 * capability (a Pix PSP for cards, an acquirer without boletos) stops the
 * start here with CapabilityNotSupported naming the variable, so no call at
 * run time finds a capability missing.
 */
export function buildProviders(config: Pick<Config, 'providers' | 'bcbPix' | 'cielo'>, deps: ConnectorDeps & { db: Db }): Providers {
  // One instance per connector: Cielo serving cards and boletos is one client.
  const built = new Map<string, PaymentProvider | CardAcquirer>();
  const providerNamed = (name: string): { provider: PaymentProvider | CardAcquirer; connector?: Connector } => {
    if (name === 'simulated') {
      const provider = built.get(name) ?? new SimulatedProvider(deps.db, deps.clock);
      built.set(name, provider);
      return { provider };
    }
    let provider = built.get(name) as ConnectedProvider | undefined;
    if (!provider) {
      const connector = connectorNamed(name, config, deps);
      provider = connector.card ? new ConnectedAcquirer(connector, connector.card, deps.db, deps.clock) : new ConnectedProvider(connector, deps.db, deps.clock);
      built.set(name, provider);
    }
    return { provider, connector: provider.connectorOf() };
  };
  try {
    return choose(config.providers, providerNamed);
  } catch (error) {
    // A refused configuration leaves no connection open behind it.
    for (const provider of built.values()) if (provider instanceof ConnectedProvider) void provider.close();
    throw error;
  }
}

type Named = (name: string) => { provider: PaymentProvider | CardAcquirer; connector?: Connector };

/** Each method's provider, checked against the capability the method needs. */
function choose({ pix, boleto, card }: Config['providers'], providerNamed: Named): Providers {
  const providers: Providers = {};
  if (pix !== 'disabled') {
    const { provider, connector } = providerNamed(pix);
    if (connector && !connector.pix) throw new CapabilityNotSupported('PIX_PROVIDER', pix, 'register Pix charges');
    providers.PIX = provider;
  }
  if (boleto !== 'disabled') {
    const { provider, connector } = providerNamed(boleto);
    if (connector && !connector.boleto) throw new CapabilityNotSupported('BOLETO_PROVIDER', boleto, 'register boletos');
    providers.BOLETO = provider;
  }
  if (card !== 'disabled') {
    const { provider } = providerNamed(card);
    if (!('authorizeCard' in provider)) throw new CapabilityNotSupported('CARD_PROVIDER', card, 'authorize cards');
    providers.CREDIT_CARD = provider;
  }
  return providers;
}

const METHOD_NAMES: Record<ChargeMethod, string> = { PIX: 'Pix', CREDIT_CARD: 'Card', BOLETO: 'Boleto' };

export const methodUnavailable = (method: ChargeMethod): DomainError =>
  new DomainError('PAYMENT_METHOD_UNAVAILABLE', ERRORS.PAYMENT_METHOD_UNAVAILABLE.method({ method: METHOD_NAMES[method] }), [
    { field: 'paymentMethod', message: PROBLEMS.switchedOff({ method }) },
  ]);
