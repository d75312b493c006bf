/**
 * Migrations are listed in code (not discovered on disk) so the same list runs
 * from the TypeScript sources in tests and from the compiled build, on
 * PostgreSQL and on PGlite. Append; never edit a migration that has shipped.
 */
import type { Migration } from 'kysely';
import * as m001 from './001-spine.js';
import * as m002 from './002-receivables.js';
import * as m003 from './003-webhooks.js';
import * as m004 from './004-vault.js';
import * as m005 from './005-idempotency-success-status.js';
import * as m006 from './006-vault-replay-and-velocity.js';
import * as m007 from './007-card-outcome-reconciliation.js';
import * as m008 from './008-payment-providers.js';
import * as m009 from './009-refunds.js';
import * as m010 from './010-payment-links.js';
import * as m011 from './011-transaction-version.js';
import * as m012 from './012-webhook-delivery-log.js';
import * as m013 from './013-inline-stored-responses.js';
import * as m014 from './014-vault-card-retention.js';
import * as m015 from './015-users.js';
import * as m016 from './016-transaction-search.js';
import * as m017 from './017-api-key-name-and-last-use.js';
import * as m018 from './018-webhook-disabling.js';
import * as m019 from './019-vault-closed-intents.js';
import * as m020 from './020-sign-in-attempts.js';
import * as m021 from './021-creators-and-invitation-ids.js';
import * as m022 from './022-daily-totals.js';
import * as m023 from './023-transaction-refund-filters.js';
import * as m024 from './024-receivables-of-a-sale.js';

export const migrations: Record<string, Migration> = {
  '001-spine': m001,
  '002-receivables': m002,
  '003-webhooks': m003,
  '004-vault': m004,
  '005-idempotency-success-status': m005,
  '006-vault-replay-and-velocity': m006,
  '007-card-outcome-reconciliation': m007,
  '008-payment-providers': m008,
  '009-refunds': m009,
  '010-payment-links': m010,
  '011-transaction-version': m011,
  '012-webhook-delivery-log': m012,
  '013-inline-stored-responses': m013,
  '014-vault-card-retention': m014,
  '015-users': m015,
  '016-transaction-search': m016,
  '017-api-key-name-and-last-use': m017,
  '018-webhook-disabling': m018,
  '019-vault-closed-intents': m019,
  '020-sign-in-attempts': m020,
  '021-creators-and-invitation-ids': m021,
  '022-daily-totals': m022,
  '023-transaction-refund-filters': m023,
  '024-receivables-of-a-sale': m024,
};
