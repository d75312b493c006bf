/** TypeBox schemas of the transaction resource and its list query. */
import { Type } from 'typebox';
import { PageLimit, TaxId, Timestamp } from '../../http/common-schemas.js';

export const PAYMENT_METHODS = ['CREDIT_CARD', 'PIX', 'BOLETO'] as const;
export const TRANSACTION_STATUSES = ['PENDING', 'PAID', 'FAILED', 'CANCELED'] as const;
/** The events of a transaction's life (the event catalogue of modules/events). */
export const TRANSACTION_EVENT_TYPES = ['transaction.created', 'transaction.paid', 'transaction.canceled'] as const;
export type TransactionEventType = (typeof TRANSACTION_EVENT_TYPES)[number];
const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'] as const;

const Digits = (min: number, max: number, description?: string) =>
  Type.String({ pattern: `^[0-9]{${min},${max}}$`, ...(description ? { description } : {}) });

const AddressSchema = Type.Object(
  {
    street: Type.String({ minLength: 1, maxLength: 255 }),
    number: Type.String({ minLength: 1, maxLength: 20 }),
    complement: Type.Optional(Type.String({ maxLength: 255 })),
    neighborhood: Type.String({ minLength: 1, maxLength: 255 }),
    city: Type.String({ minLength: 1, maxLength: 255 }),
    state: Type.Enum(UFS, { description: 'two-letter UF' }),
    zipCode: Digits(8, 8, 'CEP, 8 digits'),
  },
  { additionalProperties: false, $id: 'Address', description: "The buyer's address (required for boleto)" },
);

export const BuyerSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    document: TaxId('CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for the alphanumeric CNPJ), no punctuation, valid check digits'),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'required for card and boleto' })),
    phone: Type.Optional(
      Type.Object(
        { country: Digits(1, 3), area: Digits(2, 2), number: Digits(8, 9) },
        { additionalProperties: false },
      ),
    ),
    address: Type.Optional(AddressSchema),
  },
  { additionalProperties: false, $id: 'Buyer' },
);

export const MetadataSchema = Type.Object(
  {},
  {
    additionalProperties: Type.String({ maxLength: 500 }),
    maxProperties: 20,
    propertyNames: { minLength: 1, maxLength: 40 },
    description: 'up to 20 string pairs; key up to 40 characters, value up to 500',
    $id: 'Metadata',
  },
);

export const ReceivableSchema = Type.Object({
  recipientDocument: Type.String(),
  role: Type.Enum(['CUSTOM_SPLIT_RECIPIENT', 'SELLER']),
  installment: Type.Integer(),
  grossAmountCents: Type.Integer(),
  feeCents: Type.Integer(),
  amountCents: Type.Integer(),
  expectedOn: Type.String({ format: 'date' }),
  status: Type.Enum(['PENDING', 'PAID']),
  paidAt: Type.Optional(Timestamp),
  adjustment: Type.Optional(
    Type.Enum(['REFUND', 'CHARGEBACK'], {
      description: 'present on an adjustment line: what a refund or chargeback takes back from this account beyond its PENDING lines (negative amounts, installment 0)',
    }),
  ),
  refundId: Type.Optional(Type.String({ description: 'the rf_ refund of a REFUND adjustment line' })),
}, { $id: 'TransactionReceivable', description: "One account's slice of one installment of a sale" });

export const TransactionSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Enum(TRANSACTION_STATUSES),
    paymentMethod: Type.Enum(PAYMENT_METHODS),
    installments: Type.Integer(),
    amountCents: Type.Integer({ description: "the sale's amount; refunds never change it" }),
    feeCents: Type.Integer({ description: 'the fee kept: 0 for a sale that took no money; after refunds, returned pro rata' }),
    netAmountCents: Type.Integer({ description: 'amountCents − refundedCents − chargedBackCents − feeCents; 0 for a sale that took no money' }),
    refundedCents: Type.Integer({ description: 'the sum of SUCCEEDED refunds' }),
    chargedBackCents: Type.Optional(Type.Integer({ description: 'what a chargeback took back (present once charged back)' })),
    chargedBackAt: Type.Optional(Timestamp),
    currency: Type.Literal('BRL'),
    sellerId: Type.String(),
    sellerName: Type.String(),
    paymentIntentId: Type.String(),
    paymentLinkId: Type.Optional(Type.String({ description: 'plink_ id, when the sale was paid through a payment link' })),
    referenceId: Type.String(),
    description: Type.Optional(Type.String()),
    buyer: BuyerSchema,
    paymentDetails: Type.Object({
      pix: Type.Optional(Type.Object({ qrCode: Type.String(), qrCodeImageBase64: Type.String(), expiresAt: Timestamp })),
      boleto: Type.Optional(
        Type.Object({
          digitableLine: Type.String(),
          barcode: Type.String(),
          dueDate: Type.String({ format: 'date' }),
          url: Type.Optional(Type.String({ description: 'the printable boleto, when the boleto provider issues one' })),
        }),
      ),
      card: Type.Optional(
        Type.Object({
          brand: Type.String(),
          last4: Type.String(),
          refusalCode: Type.Optional(Type.String()),
          refusalMessage: Type.Optional(Type.String()),
        }),
      ),
    }),
    split: Type.Object({ receivables: Type.Array(ReceivableSchema) }),
    metadata: MetadataSchema,
    createdAt: Timestamp,
    // A type list, not anyOf: the response serializer copies anyOf branches with the $id schemas beside them.
    paidAt: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'date-time',
      description: 'when the sale was paid; null while it has not been (a sale refunded or charged back keeps it)',
    }),
    updatedAt: Timestamp,
    version: Type.Integer({
      minimum: 1,
      description: 'the state sequence number: 1 when created, one more at each change (paid, canceled, failed, each refund or chargeback); an event carrying a lower version than one already seen is stale',
    }),
  },
  { $id: 'Transaction' },
);

export const TransactionListQuery = Type.Object(
  {
    limit: PageLimit,
    startingAfter: Type.Optional(Type.String({ pattern: '^trx_', maxLength: 64 })),
    status: Type.Optional(Type.Enum(TRANSACTION_STATUSES)),
    paymentMethod: Type.Optional(Type.Enum(PAYMENT_METHODS)),
    referenceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    paymentLinkId: Type.Optional(Type.String({ pattern: '^plink_[0-9a-z]{26}$', description: 'the sales of one payment link' })),
    createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
    createdTo: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
