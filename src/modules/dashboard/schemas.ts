/**
 * TypeBox schemas of the dashboard's JSON API (docs/dashboard.md): its
 * queries and bodies. Lists page as the seller's API does, under the names
 * the pages use (`cursor` in, `nextCursor` out). Hidden from /openapi.json.
 */
import { Type, type Static } from 'typebox';
import { PageLimit } from '../../http/common-schemas.js';
import { SCOPES } from '../companies/api-keys.js';
import { EVENT_TYPES } from '../events/index.js';
import { PAYMENT_METHODS, REFUND_STATES, TRANSACTION_STATUSES } from '../transactions/index.js';
import { CSV_FORMATS } from './rules.js';

const Cursor = (prefix: string) => Type.Optional(Type.String({ pattern: `^${prefix}_[0-9a-z]{1,40}$` }));
const SaoPauloDate = Type.Optional(Type.String({ format: 'date', description: 'a São Paulo calendar date, included' }));

const transactionFilters = {
  status: Type.Optional(Type.Enum([...TRANSACTION_STATUSES, ...REFUND_STATES], { description: 'a status, or what became of a paid sale (refunded, in part, charged back)' })),
  paymentMethod: Type.Optional(Type.Enum(PAYMENT_METHODS)),
  from: SaoPauloDate,
  to: SaoPauloDate,
  paymentLinkId: Type.Optional(Type.String({ pattern: '^plink_[0-9a-z]{26}$' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'the search box (transactions/search.ts)' })),
};

/** An export's form (rules.ts): `excel` by default, `rfc4180` for programs; `lang`, the page's language (the excel form's words). */
const csvOptions = {
  format: Type.Optional(Type.Enum(CSV_FORMATS, { description: 'excel (default): `;`, BOM, reais, São Paulo times, words in `lang`; rfc4180: `,`, centavos, ISO UTC, English' })),
  lang: Type.Optional(Type.Enum(['pt-BR', 'en'], { description: "the page's language, pt-BR by default" })),
};

export const TransactionsQuery = Type.Object({ ...transactionFilters, limit: PageLimit, cursor: Cursor('trx') }, { additionalProperties: false });
export const TransactionsCsvQuery = Type.Object({ ...transactionFilters, ...csvOptions }, { additionalProperties: false });
export type TransactionsFilter = Static<typeof TransactionsCsvQuery>;

export const RefundBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 9_999_999_999, description: 'centavos' }),
    reason: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const PageOnlyQuery = (prefix: string) => Type.Object({ limit: PageLimit, cursor: Cursor(prefix) }, { additionalProperties: false });

const receivableFilters = {
  status: Type.Optional(Type.Enum(['PENDING', 'PAID'])),
  recipient: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{11,14}$', description: "the recipient's CPF or CNPJ, no punctuation" })),
  from: Type.Optional(Type.String({ format: 'date', description: 'expected on or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'expected on or before' })),
};
export const ReceivablesQuery = Type.Object({ ...receivableFilters, limit: PageLimit, cursor: Cursor('rcv') }, { additionalProperties: false });
export const ReceivablesCsvQuery = Type.Object({ ...receivableFilters, ...csvOptions }, { additionalProperties: false });
export type ReceivablesFilter = Static<typeof ReceivablesCsvQuery>;

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Optional(Type.Array(Type.Enum(SCOPES), { uniqueItems: true, maxItems: SCOPES.length, description: 'none: every scope' })),
  },
  { additionalProperties: false },
);

export const EventsQuery = Type.Object({ limit: PageLimit, cursor: Cursor('evt'), type: Type.Optional(Type.Enum(EVENT_TYPES)) }, { additionalProperties: false });
