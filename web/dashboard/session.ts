/** Who is signed in (`Me`, as GET /dashboard/api/session answers it) and what the role may do. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Permission, Role } from '../../src/modules/users/roles.js';

// The roles table is the server's own (it imports nothing); the pages read it to hide what a role cannot use.
export { ROLES, type Permission, type Role } from '../../src/modules/users/roles.js';

export interface Me {
  stage: 'signed-in';
  user: { id: string; email: string; name: string; totpEnabled: boolean };
  company: { id: string; name: string };
  role: Role;
  permissions: Permission[];
  companies: { id: string; name: string; role: Role }[];
  environment: 'sandbox' | 'production';
  csrfToken: string;
  totpSetupRequired: boolean;
}

interface SessionState {
  me: Me;
  /** Replaces the session (a company switch, two-step verification turned on). */
  setMe(me: Me): void;
  /** Ends the session on the page (after sign-out, or a 401). */
  signOut(): void;
}

export const SessionContext = createContext<SessionState | undefined>(undefined);

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Whether the signed-in role may do `permission`: pages hide what it may not (the server refuses it anyway). */
export function useCan(): (permission: Permission) => boolean {
  const { me } = useSession();
  return (permission) => me.permissions.includes(permission);
}
