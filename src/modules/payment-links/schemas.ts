/** TypeBox schemas of the payment link resource, its requests, and the hosted page's public requests. */
import { Type, type Static } from 'typebox';
import { PageLimit, Timestamp } from '../../http/common-schemas.js';
import { MAX_AMOUNT_CENTS } from '../../lib/money.js';
import { CardTokenizationSchema, SplitRuleSchema } from '../payment-intents/index.js';
import { BuyerSchema, MetadataSchema, PAYMENT_METHODS, TRANSACTION_STATUSES } from '../transactions/index.js';

const LINK_STATUSES = ['ACTIVE', 'EXPIRED', 'CANCELED', 'COMPLETED'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** Installments a card payment through a link may take (as an intent's `installments`). */
const MAX_INSTALLMENTS = 12;
/** The most payments one link may take when `maxPayments` is given. */
const MAX_PAYMENTS_LIMIT = 1_000_000;

export const CreateLinkBody = Type.Object(
  {
    amountCents: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT_CENTS, description: 'centavos; at least 500 when BOLETO is allowed' }),
    description: Type.String({ minLength: 1, maxLength: 255, description: 'shown to the buyer on the page and copied to each sale' }),
    paymentMethods: Type.Array(Type.Enum(PAYMENT_METHODS), { minItems: 1, uniqueItems: true, description: 'the methods the page offers' }),
    maxInstallments: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INSTALLMENTS, default: 1, description: 'card only: the buyer picks 1 to this' })),
    splitRules: Type.Optional(Type.Array(SplitRuleSchema, { description: 'applied to every sale, validated as an intent\'s' })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'in the future; after it the link takes no payment' })),
    maxPayments: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAYMENTS_LIMIT, description: 'how many payments the link takes; default unlimited' })),
    metadata: Type.Optional(MetadataSchema),
    referenceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "the seller's own id; each sale's referenceId (default: the link's id)" })),
  },
  { additionalProperties: false, examples: [{ amountCents: 15990, description: 'Camiseta azul', paymentMethods: ['PIX', 'CREDIT_CARD'], maxInstallments: 3 }] },
);
export type CreateLinkInput = Static<typeof CreateLinkBody>;

export const LinkSchema = Type.Object(
  {
    id: Type.String({ description: 'plink_' }),
    status: Type.Enum(LINK_STATUSES),
    url: Type.String({ description: 'the hosted payment page: send it to the buyer' }),
    amountCents: Type.Integer(),
    description: Type.String(),
    paymentMethods: Type.Array(Type.Enum(PAYMENT_METHODS)),
    maxInstallments: Type.Integer(),
    splitRules: Type.Optional(Type.Array(SplitRuleSchema)),
    expiresAt: Type.Optional(Timestamp),
    maxPayments: Type.Optional(Type.Integer()),
    paymentsCount: Type.Integer({ description: 'PAID sales made through the link' }),
    metadata: MetadataSchema,
    referenceId: Type.Optional(Type.String()),
    canceledAt: Type.Optional(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'PaymentLink' },
);
export type LinkView = Static<typeof LinkSchema>;

export const LinkListQuery = Type.Object(
  {
    limit: PageLimit,
    startingAfter: Type.Optional(Type.String({ pattern: '^plink_', maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** The hosted page's request to pay: the buyer's data and choice (the link fixes the amount and the rest). */
export const PagePayBody = Type.Object(
  {
    paymentMethod: Type.Enum(PAYMENT_METHODS),
    installments: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INSTALLMENTS })),
    buyer: BuyerSchema,
  },
  { additionalProperties: false },
);
export type PagePayInput = Static<typeof PagePayBody>;

export const PageConfirmBody = Type.Object(
  { token: Type.String({ pattern: '^vtk_', minLength: 5, maxLength: 4100 }) },
  { additionalProperties: false },
);

/**
 * What the page shows of a sale: its state and how to pay it. Never the
 * seller's data, the split or the buyer (anyone holding the ids could read it).
 */
export const PagePaymentSchema = Type.Object({
  transactionId: Type.String(),
  status: Type.Enum(TRANSACTION_STATUSES),
  paymentMethod: Type.Enum(PAYMENT_METHODS),
  amountCents: Type.Integer(),
  installments: Type.Integer(),
  pix: Type.Optional(Type.Object({ qrCode: Type.String(), qrCodeImageBase64: Type.String(), expiresAt: Timestamp })),
  boleto: Type.Optional(Type.Object({ digitableLine: Type.String(), barcode: Type.String(), dueDate: Type.String(), url: Type.Optional(Type.String()) })),
  card: Type.Optional(Type.Object({ brand: Type.String(), last4: Type.String(), refusalCode: Type.Optional(Type.String()), refusalMessage: Type.Optional(Type.String()) })),
}, { $id: 'PaymentPagePayment' });
export type PagePayment = Static<typeof PagePaymentSchema>;

/** The page's answer to "pay": a card intent to tokenize for, or the Pix / boleto charge to pay. */
export const PageChargeSchema = Type.Object({
  intentId: Type.String(),
  cardTokenization: Type.Optional(CardTokenizationSchema),
  payment: Type.Optional(PagePaymentSchema),
}, { $id: 'PaymentPageCharge' });
export type PageCharge = Static<typeof PageChargeSchema>;

/** The page's CSRF token, which GET /pay/{id} put in the page. */
export const PageHeaders = Type.Object({ 'x-pay-token': Type.Optional(Type.String({ maxLength: 100, description: 'the token the page was served with' })) });

export const PageParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
/** The page itself (GET /pay/{id}) takes any id: one too long is as unknown as any other (the same not-found page). */
export const PageViewParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
export const PageItemParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), itemId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** A receipt's address (receipt.ts): the sale and its token; anything else is the same not-found page. */
export const ReceiptParams = Type.Object({ transactionId: Type.String({ maxLength: 64 }), token: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
