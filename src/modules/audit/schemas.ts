/** TypeBox schemas of the dashboard's audit log route (hidden from the API reference). */
import { Type } from 'typebox';
import { PageLimit } from '../../http/common-schemas.js';
import { AUDIT_ACTIONS } from './entry.js';

export const AuditQuerySchema = Type.Object(
  {
    userId: Type.Optional(Type.String({ maxLength: 64 })),
    action: Type.Optional(Type.Enum(AUDIT_ACTIONS)),
    limit: PageLimit,
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

export const AuditPageSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      at: Type.String(),
      userId: Type.Union([Type.String(), Type.Null()]),
      email: Type.String(),
      action: Type.String(),
      target: Type.Union([Type.String(), Type.Null()]),
      ip: Type.String(),
      details: Type.Union([Type.Record(Type.String(), Scalar), Type.Null()]),
    }),
  ),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
