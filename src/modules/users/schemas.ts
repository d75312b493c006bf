/** TypeBox schemas of the dashboard's session, account and team routes (hidden from the API reference). */
import { Type } from 'typebox';
import { MAX_PASSWORD_LENGTH } from './password-rule.js';
import { ROLES } from './roles.js';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from './rules.js';

const Email = Type.String({ minLength: 1, maxLength: MAX_EMAIL_LENGTH });
// Bounded here, before any hash: scrypt's cost must not depend on what a client sends.
const Password = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH });
const Role = Type.Enum(ROLES);

export const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const CodeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
export const CompanyBody = Type.Object({ companyId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
// An invitation's token travels in bodies only: a path or a query reaches proxy and access logs.
const Token = Type.String({ minLength: 1, maxLength: 100 });
export const TokenBody = Type.Object({ token: Token }, { additionalProperties: false });
export const AcceptBody = Type.Object(
  {
    token: Token,
    name: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    password: Password,
    passwordConfirmation: Type.Optional(Type.String({ maxLength: MAX_PASSWORD_LENGTH })),
  },
  { additionalProperties: false },
);
export const PasswordChangeBody = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
export const PasswordBody = Type.Object({ password: Password }, { additionalProperties: false });
/** Turning two-step verification off: the password and a current code (or a recovery code). */
export const TotpOffBody = Type.Object({ password: Password, code: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
export const InviteBody = Type.Object({ email: Email, role: Role }, { additionalProperties: false });
export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });
export const MemberParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export const InvitationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
/** What becomes of the removed member's API keys and webhooks: revoked, or kept (the default, and the operator's). */
export const RemovalBody = Type.Unsafe<{ credentials?: 'revoke' | 'keep' } | null>({
  type: ['object', 'null'],
  properties: { credentials: { type: 'string', enum: ['revoke', 'keep'] } },
  additionalProperties: false,
});
export const SettingsBody = Type.Object({ requireTotp: Type.Boolean() }, { additionalProperties: false });
