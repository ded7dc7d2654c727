import { readFile } from 'node:fs/promises';
import { MIN_PASSWORD_LENGTH } from '../accounts/AccountStore.js';
import { UsageError } from './UsageError.js';

/** The longest password the admin API takes. */
const MAX_PASSWORD_LENGTH = 1024;

/** The terminal (or pipe) a password is read from, and where the prompts go. */
export interface PasswordInput {
  readonly stdin: NodeJS.ReadStream;
  readonly stderr: NodeJS.WriteStream;
}

/** The first line of a text, without its line ending. */
const firstLine = (text: string) => text.split(/\r?\n/, 1)[0] ?? '';

function checked(password: string, from: string): string {
  if (password.length === 0) throw new UsageError(`no password given (${from} is empty)`);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`the password is too short: at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new UsageError(`the password is too long: at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  return password;
}

/**
 * Asks each question on the terminal with echo off: what is typed never shows. The terminal
 * stays in raw mode from before the first prompt to after the last answer, so nothing typed
 * ahead of a prompt is echoed either. Ctrl-C gives up.
 */
async function askHidden(input: PasswordInput, questions: readonly string[]): Promise<string[]> {
  const { stdin, stderr } = input;
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  const answers: string[] = [];
  try {
    for (const question of questions) {
      stderr.write(question);
      answers.push(
        await new Promise<string>((resolve, reject) => {
          let typed = '';
          const onData = (chunk: string) => {
            for (const ch of chunk) {
              if (ch === '\r' || ch === '\n' || ch === '\u0004') {
                stdin.off('data', onData);
                stderr.write('\n');
                resolve(typed);
                return;
              }
              if (ch === '\u0003') {
                stdin.off('data', onData);
                stderr.write('\n');
                reject(new UsageError('cancelled: the password was not changed'));
                return;
              }
              if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
              else if (ch >= ' ' && typed.length <= MAX_PASSWORD_LENGTH) typed += ch;
            }
          };
          stdin.on('data', onData);
        }),
      );
    }
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
  }
  return answers;
}

/** All of a piped stdin, up to a bound. */
async function readPipe(stdin: NodeJS.ReadStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.length > 4 * MAX_PASSWORD_LENGTH) break;
  }
  return text;
}

/**
 * The new password for `nodegate admin set-password`, never from the command line: from
 * `file` (its first line), else asked twice on the terminal without echo, else the first line
 * of stdin when it is a pipe (`printf '%s\n' "$PW" | nodegate admin set-password`). Checked
 * here first (at least 10 characters, at most 1,024) so a typo costs no round trip.
 *
 * @example
 * const password = await readNewPassword({ file: undefined, stdin: process.stdin, stderr: process.stderr });
 */
export async function readNewPassword(options: PasswordInput & { file?: string | undefined }): Promise<string> {
  if (options.file !== undefined) {
    const text = await readFile(options.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`--password-file: cannot read ${options.file} (${err.code ?? err.message})`);
    });
    return checked(firstLine(text), options.file);
  }
  if (options.stdin.isTTY) {
    const [password = '', again] = await askHidden(options, [
      'New password for operator@localhost: ',
      'Type it again: ',
    ]);
    if (again !== password) throw new UsageError('the two passwords differ: nothing was changed');
    return checked(password, 'what was typed');
  }
  return checked(firstLine(await readPipe(options.stdin)), 'stdin');
}
