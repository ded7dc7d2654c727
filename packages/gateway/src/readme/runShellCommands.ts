import { spawn } from 'node:child_process';
import type { ShellCommand } from './parseShellBlock.js';

/** What one command printed (stdout and stderr together) and its exit status. */
export interface CommandRun {
  readonly output: string;
  readonly status: number;
}

/** The separator of the runner's own marks in the output (ASCII record separator). */
const RS = '\x1e';

/**
 * Runs commands in order in one bash process, as a user types them into one terminal (variables,
 * functions and `export`s carry from one to the next), and returns what each printed and its exit
 * status. A command that was never reached (the shell exited, or `timeoutMs` passed: bash is then
 * killed) has no entry (undefined).
 *
 * @example
 * const [a, b] = await runShellCommands([{ text: 'X=1', line: 1, expect: [] }, { text: 'echo $X', line: 2, expect: [] }], { cwd: '/tmp' });
 * // b.output === '1\n', b.status === 0
 */
export async function runShellCommands(
  commands: readonly ShellCommand[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    /** Shell code run first, not one of the commands (functions standing in for programs, say). */
    preamble?: string;
  },
): Promise<Array<CommandRun | undefined>> {
  const script = [
    'exec 2>&1',
    `__readme_mark() { printf '\\n${RS}%s${RS}\\n' "$1"; }`,
    options.preamble ?? '',
    ...commands.flatMap((c, i) => [`__readme_mark "begin ${i}"`, c.text, `__readme_mark "end ${i} $?"`]),
    '',
  ].join('\n');
  const child = spawn('bash', ['--noprofile', '--norc', '-s'], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  await new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.stdin.end(script);
  });
  clearTimeout(timer);
  const runs: Array<CommandRun | undefined> = commands.map(() => undefined);
  const mark = new RegExp(`\\n?${RS}(begin|end) (\\d+)(?: (\\d+))?${RS}\\n`, 'g');
  let begun: { index: number; from: number } | undefined;
  for (const m of out.matchAll(mark)) {
    const index = Number(m[2]);
    if (m[1] === 'begin') begun = { index, from: m.index + m[0].length };
    else if (begun?.index === index) {
      runs[index] = { output: out.slice(begun.from, m.index), status: Number(m[3]) };
      begun = undefined;
    }
  }
  return runs;
}
