import { readNewPassword, type PasswordInput } from './readNewPassword.js';
import { type AdminAccessFlags, withAdminClient } from './withAdminClient.js';

/** Options of `nodegate admin …`. */
export interface AdminFlags extends AdminAccessFlags {
  json?: boolean | undefined;
  /** `set-password`: read the password from this file instead of the terminal or stdin. */
  passwordFile?: string | undefined;
}

/**
 * `nodegate admin sign-in-link`: prints a new one-time dashboard sign-in link for the operator
 * (the URL alone on stdout, so `$(nodegate admin sign-in-link)` is the link; when it expires on
 * stderr). `nodegate admin set-password`: reads a new password (terminal without echo, stdin,
 * or `--password-file`; see {@link readNewPassword}) before anything is opened, then sets the
 * operator's password. Both through the admin API like `keys` ({@link withAdminClient}).
 *
 * @example
 * await runAdmin('sign-in-link', { dataDir: '.nodegate' }, { stdin: process.stdin, stderr: process.stderr }, console.log);
 */
export async function runAdmin(
  sub: 'sign-in-link' | 'set-password',
  flags: AdminFlags,
  io: PasswordInput,
  out: (line: string) => void,
): Promise<number> {
  if (sub === 'sign-in-link') {
    const link = await withAdminClient(flags, (admin) => admin.createSignInLink());
    if (flags.json) out(JSON.stringify(link));
    else {
      out(link.url);
      const at = new Date(link.expiresAt);
      const until = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
      io.stderr.write(`(a one-time link for operator@localhost: it signs in once, until ${until})\n`);
    }
    return 0;
  }
  const password = await readNewPassword({ ...io, file: flags.passwordFile });
  const done = await withAdminClient(flags, (admin) => admin.setOperatorPassword(password));
  const ended = done.sessionsEnded === 1 ? '1 dashboard session' : `${done.sessionsEnded} dashboard sessions`;
  out(`password set for operator@localhost (${ended} signed out); sign in at /dashboard with it`);
  return 0;
}
