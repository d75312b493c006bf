/** TypeBox schemas of the payment intent resource and its requests. */
import { Type, type Static } from 'typebox';
import { TaxId, Timestamp } from '../../http/common-schemas.js';
import { MAX_AMOUNT_CENTS } from '../../lib/money.js';
import { BuyerSchema, MetadataSchema, PAYMENT_METHODS, TransactionSchema } from '../transactions/index.js';

export const INTENT_STATUSES = ['REQUIRES_TOKEN', 'REQUIRES_CONFIRMATION', 'CONFIRMED', 'FAILED', 'EXPIRED', 'CANCELED'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const SplitRuleSchema = Type.Object(
  {
    recipientDocument: TaxId('CPF or CNPJ (numeric or alphanumeric) of an approved account, no punctuation'),
    type: Type.Enum(['PERCENTAGE', 'FIXED']),
    percentage: Type.Optional(Type.Number({ description: 'with PERCENTAGE; at most 2 decimal places (10.5 = 10.5 %)' })),
    amountCents: Type.Optional(Type.Integer({ description: 'with FIXED; centavos' })),
  },
  { additionalProperties: false, $id: 'SplitRule' },
);

/** A buyer the sandbox accepts for every method (a valid CPF; the address a boleto needs): the reference's examples, the demo, `svc trigger`. */
export const SANDBOX_BUYER = {
  name: 'Maria da Silva',
  document: '52998224725',
  email: 'maria@example.com',
  address: { street: 'Avenida Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zipCode: '01310100' },
} as const;

export const CreateIntentBody = Type.Object(
  {
    amountCents: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT_CENTS, description: 'centavos; boleto at least 500' }),
    paymentMethod: Type.Enum(PAYMENT_METHODS),
    confirm: Type.Optional(Type.Boolean({ description: 'true confirms at once (Pix and boleto only)' })),
    referenceId: Type.String({ minLength: 1, maxLength: 64, description: "the seller's own order id" }),
    buyer: BuyerSchema,
    splitRules: Type.Optional(Type.Array(SplitRuleSchema, { description: 'at most 20 rules' })),
    installments: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, description: 'card only; default 1' })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    metadata: Type.Optional(MetadataSchema),
    pix: Type.Optional(
      Type.Object(
        { expiresInSeconds: Type.Integer({ minimum: 60, maximum: 604_800, default: 3600, description: 'from confirmation' }) },
        { additionalProperties: false },
      ),
    ),
    boleto: Type.Optional(
      Type.Object(
        { dueDate: Type.String({ format: 'date', description: 'YYYY-MM-DD, São Paulo; default today + 3 days' }) },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    // The API reference's examples; each succeeds in the sandbox (test/api/openapi.test.ts sends them).
    examples: [
      { amountCents: 15990, paymentMethod: 'PIX', confirm: true, referenceId: 'order-1001', buyer: SANDBOX_BUYER },
      { amountCents: 15990, paymentMethod: 'CREDIT_CARD', installments: 3, referenceId: 'order-1002', buyer: SANDBOX_BUYER },
      { amountCents: 15990, paymentMethod: 'BOLETO', confirm: true, referenceId: 'order-1003', buyer: SANDBOX_BUYER },
    ],
  },
);
export type CreateIntentInput = Static<typeof CreateIntentBody>;

/**
 * One schema typed object-or-null rather than a union of the two, so a bad
 * token is reported on `token` alone (a union also reported the null branch's
 * failure as a bogus `body: must be null` detail).
 */
export const ConfirmBody = Type.Unsafe<{ token?: string } | null>({
  type: ['object', 'null'],
  properties: { token: { type: 'string', pattern: '^vtk_', maxLength: 4100, description: 'vault token; card only' } },
  additionalProperties: false,
  description: 'No body for Pix and boleto',
  examples: [{}],
});

export const CardTokenizationSchema = Type.Object({
  vaultUrl: Type.String({ description: 'the vault origin: load {vaultUrl}/sdk.js and mount SvcVault' }),
  ticket: Type.String({ description: 'authorizes tokenizing one card for this intent; expires with it' }),
  encryptionKey: Type.Object({
    kty: Type.Literal('RSA'),
    kid: Type.String(),
    alg: Type.Literal('RSA-OAEP-256'),
    use: Type.Literal('enc'),
    n: Type.String(),
    e: Type.String(),
  }),
}, { $id: 'CardTokenization', description: 'How the buyer\'s page tokenizes the card at the vault' });
export type CardTokenization = Static<typeof CardTokenizationSchema>;

export const IntentSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Enum(INTENT_STATUSES),
    amountCents: Type.Integer(),
    paymentMethod: Type.Enum(PAYMENT_METHODS),
    installments: Type.Integer(),
    referenceId: Type.String(),
    description: Type.Optional(Type.String()),
    buyer: BuyerSchema,
    splitRules: Type.Optional(Type.Array(SplitRuleSchema)),
    metadata: MetadataSchema,
    paymentLinkId: Type.Optional(Type.String({ description: 'plink_ id, when created through a payment link' })),
    transactionId: Type.Optional(Type.String()),
    transaction: Type.Optional(TransactionSchema),
    cardTokenization: Type.Optional(CardTokenizationSchema),
    expiresAt: Timestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'PaymentIntent' },
);
export type IntentView = Static<typeof IntentSchema>;
