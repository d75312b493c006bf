/** TypeBox schemas of the receivables list. */
import { Type } from 'typebox';
import { TaxId } from '../../http/common-schemas.js';
import { ReceivableSchema } from '../transactions/index.js';

export const ReceivableListItem = Type.Object(
  {
    id: Type.String({ description: 'rcv_ id' }),
    transactionId: Type.String(),
    ...ReceivableSchema.properties,
  },
  { $id: 'Receivable' },
);

export const ReceivableListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ pattern: '^rcv_', maxLength: 64 })),
    status: Type.Optional(Type.Enum(['PENDING', 'PAID'])),
    recipientDocument: Type.Optional(TaxId('the receivables of one recipient')),
    expectedOnFrom: Type.Optional(Type.String({ format: 'date' })),
    expectedOnTo: Type.Optional(Type.String({ format: 'date' })),
  },
  { additionalProperties: false },
);
