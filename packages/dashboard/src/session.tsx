import { createContext, useContext } from 'react';
import type { Account, DashboardConfig, Session } from './types';

/** What every screen knows: who is signed in, the account in view and what they may change there. */
export interface AppState {
  session: Session;
  config: DashboardConfig;
  account: Account | undefined;
  /** owner, admin or the operator: may create, change and revoke keys. */
  canEditKeys: boolean;
  /** owner or the operator: may manage members. */
  canManageMembers: boolean;
  setAccount(id: string): void;
  signOut(): Promise<void>;
  /** Reads the session again (after a password change). */
  refreshSession(): Promise<void>;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const s = useContext(AppContext);
  if (!s) throw new Error('useApp outside the signed-in app');
  return s;
}
