/** TypeBox schemas of the payment intent resource and its requests. */
import { Type, type Static } from 'typebox';
import { Timestamp } from '../../http/common-schemas.js';
import { MAX_AMOUNT_CENTS } from '../../lib/money.js';
import { BuyerSchema, MetadataSchema, PAYMENT_METHODS, TransactionSchema } from '../transactions/index.js';

export const INTENT_STATUSES = ['REQUIRES_TOKEN', 'REQUIRES_CONFIRMATION', 'CONFIRMED', 'FAILED', 'EXPIRED', 'CANCELED'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const SplitRuleSchema = Type.Object(
  {
    recipientDocument: Type.String({ pattern: '^[0-9]+$', maxLength: 14, description: 'CPF or CNPJ of an approved account, digits only' }),
    type: Type.Enum(['PERCENTAGE', 'FIXED']),
    percentage: Type.Optional(Type.Number({ description: 'with PERCENTAGE; at most 2 decimal places (10.5 = 10.5 %)' })),
    amountCents: Type.Optional(Type.Integer({ description: 'with FIXED; centavos' })),
  },
  { additionalProperties: false },
);

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
  { additionalProperties: false },
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
});
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
