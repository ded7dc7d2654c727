import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OPERATOR_ACCOUNT_ID } from '../store/sql.js';
import type { AccountStore, User } from './AccountStore.js';
import { createOperatorSignInLink } from './createOperatorSignInLink.js';

/**
 * The operator's sign-in email: with a one-time link (printed at start, or by
 * `nodegate admin sign-in-link`), or with the password set in the dashboard or by
 * `nodegate admin set-password`.
 */
export const OPERATOR_EMAIL = 'operator@localhost';
/** File in the data directory holding the admin token (mode 0600). */
export const ADMIN_TOKEN_FILE = 'admin-token';

/** What `ensureOperator` hands the composition root. */
export interface OperatorAccess {
  /** Operator-level bearer token for the CLI and automation (also in `<dataDir>/admin-token`). */
  readonly adminToken: string;
  /** One-time dashboard sign-in link (15 minutes), or undefined when `signIn: false`. */
  readonly signInUrl: string | undefined;
  readonly operatorAccountId: string;
  readonly operatorUserId: string;
}

/**
 * Makes sure the operator exists and can get in: the operator account (`operator`, plan
 * `team`; the schema creates it), the operator user (`operator@localhost`, owner of it, no
 * password until they set one), and an admin token in `<dataDir>/admin-token` (mode 0600,
 * reused while it is still valid). Each call issues a fresh one-time sign-in link unless
 * `signIn` is false. Safe to run concurrently from several gateways sharing PostgreSQL.
 *
 * @example
 * const op = await ensureOperator({ accounts: db.accounts, dataDir, baseUrl: 'http://127.0.0.1:8550' });
 * progress(`dashboard: ${op.signInUrl}`);
 */
export async function ensureOperator(options: {
  accounts: AccountStore;
  dataDir: string;
  baseUrl: string;
  signIn?: boolean;
}): Promise<OperatorAccess> {
  const { accounts, dataDir } = options;
  if (!(await accounts.findAccount(OPERATOR_ACCOUNT_ID))) {
    await accounts.createAccount({ id: OPERATOR_ACCOUNT_ID, name: 'operator', plan: 'team' }).catch(() => undefined); // created by another gateway meanwhile: checked below
    if (!(await accounts.findAccount(OPERATOR_ACCOUNT_ID))) throw new Error('cannot create the operator account');
  }
  const found = await accounts.findUserByEmail(OPERATOR_EMAIL);
  const user: User =
    found ??
    (await accounts
      .createUser({ email: OPERATOR_EMAIL, operator: true })
      .catch(async (err: unknown) => (await accounts.findUserByEmail(OPERATOR_EMAIL)) ?? Promise.reject(err)));
  if ((await accounts.role(OPERATOR_ACCOUNT_ID, user.id)) === undefined) {
    await accounts.addMember(OPERATOR_ACCOUNT_ID, user.id, 'owner').catch(async (err: unknown) => {
      if ((await accounts.role(OPERATOR_ACCOUNT_ID, user.id)) === undefined) throw err;
    });
  }

  const file = join(dataDir, ADMIN_TOKEN_FILE);
  let adminToken = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (!adminToken || !(await accounts.verifyAdminToken(adminToken))) {
    adminToken = (await accounts.createAdminToken('cli')).token;
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${adminToken}\n`, { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  }

  let signInUrl: string | undefined;
  if (options.signIn !== false) {
    signInUrl = (await createOperatorSignInLink(accounts, user.id, options.baseUrl)).url;
  }
  return { adminToken, signInUrl, operatorAccountId: OPERATOR_ACCOUNT_ID, operatorUserId: user.id };
}
