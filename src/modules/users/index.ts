export { ROLES, PERMISSIONS, may, mayGrant, grantableScopes, permissionsOf, type Role, type Permission, type Actor } from './roles.js';
export { UserService } from './service.js';
export type { UserDeps, SignedIn, Doer, MemberCredentials, MemberCredentialList } from './deps.js';
export { TeamService, type Member } from './team.js';
export type { LiveSession, Me } from './sessions.js';
export { dashboardGuard, dashboardGuards, sessionCookieName, CSRF_HEADER, type DashboardGuard, type DashboardGuards } from './guard.js';
export { userRoutes } from './routes.js';
export { GENERATED_PASSWORD_SCRYPT, OWASP_SCRYPT, TEST_SCRYPT, type ScryptParams } from './password.js';
export { isRole } from './rules.js';
