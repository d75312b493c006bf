/** The vault's services over one database, from the master key (sealing, card fingerprints) and the internal key (tickets). */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { CardAcquirer } from '../providers/index.js';
import { CardAuthorizer } from './authorize.js';
import { cardFingerprinter } from './card-fingerprint.js';
import type { VaultClient } from './client.js';
import { recordClosedIntents } from './closed-intents.js';
import { VaultKeys } from './keys.js';
import { vaultSealers } from './master-key.js';
import { VaultSweeper } from './sweep.js';
import { Tokenizer, type TokenizeLimits } from './tokenize.js';

export interface VaultDeps extends TokenizeLimits {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  /** The card provider (CARD_PROVIDER); absent when cards are switched off. */
  acquirer: CardAcquirer | undefined;
  masterKey: Buffer;
  internalKey: Buffer;
}

export interface Vault {
  /** The database it works on, as the vault's role (VAULT_DATABASE_URL). */
  db: Db;
  keys: VaultKeys;
  tokenizer: Tokenizer;
  authorizer: CardAuthorizer;
  /** Erases card data no longer needed, and the counters that have served (run by the vault's process). */
  sweeper: VaultSweeper;
  /** The API's calls answered in process, without HTTP (tests); the vault's app serves them over HTTP. */
  client: VaultClient;
}

export function buildVault(deps: VaultDeps): Vault {
  const sealers = vaultSealers(deps.masterKey);
  const keys = new VaultKeys(deps.db, deps.clock, sealers.keys);
  const fingerprint = cardFingerprinter(deps.masterKey);
  const authorizer = new CardAuthorizer(deps.db, deps.clock, sealers, deps.acquirer);
  return {
    db: deps.db,
    keys,
    tokenizer: new Tokenizer({ ...deps, keys, sealers, fingerprint }),
    authorizer,
    sweeper: new VaultSweeper({ db: deps.db, sealers, fingerprint }),
    client: {
      authorize: (req) => authorizer.authorize(req),
      intentsClosed: (notices) => recordClosedIntents(deps.db, deps.clock, notices),
    },
  };
}
