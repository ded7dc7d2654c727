import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commandTable.js';

const run = promisify(execFile);
// The CLI as users run it: the bin npm links (`npx nodegate …`), on the built CLI.
const BIN = new URL('../../bin/nodegate.mjs', import.meta.url).pathname;
const REPO = new URL('../../../../', import.meta.url).pathname;

async function nodegate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [BIN, ...args]);
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const f = e as { code: number; stdout: string; stderr: string };
    return { code: f.code, stdout: f.stdout, stderr: f.stderr };
  }
}

describe('nodegate --help and each command’s --help', () => {
  it('nodegate --help (and -h, and help) lists every command; nothing at all prints it as an error (exit 2)', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const r = await nodegate(flag);
      expect(r.code).toBe(0);
      for (const c of COMMANDS) expect(r.stdout).toContain(`  ${[...c.words, ...c.args].join(' ')}`);
      expect(r.stdout).toContain('ipfs-node');
      expect(r.stdout).toContain('npx nodegate');
    }
    const none = await nodegate();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: nodegate COMMAND');
  });

  it('every command’s --help lists every option it takes with its value, and its arguments', async () => {
    for (const c of COMMANDS) {
      const r = await nodegate(...c.words, '--help');
      expect(r.code, c.words.join(' ')).toBe(0);
      expect(r.stdout).toContain(`usage: nodegate ${[...c.words, ...c.args].join(' ')}`);
      for (const o of c.options) expect(r.stdout).toContain(`--${o.name}${o.value ? ` ${o.value}` : ''}`);
      expect(r.stdout).toContain('-h, --help');
      // help anywhere on the line, and `nodegate help …`, give the same
      expect((await nodegate('help', ...c.words)).stdout).toBe(r.stdout);
    }
    // the options the start command is known for, by name
    const start = (await nodegate('start', '--help')).stdout;
    for (const flag of ['--config', '--listen', '--data-dir', '--log-level', '--log-format', '--tls-cert', '--tls-key'])
      expect(start).toContain(flag);
  });

  it('groups list their commands: keys --help, admin --help, config --help', async () => {
    const keys = await nodegate('keys', '--help');
    expect(keys.stdout).toMatch(
      /keys create[\s\S]*keys list[\s\S]*keys show KEY[\s\S]*keys set KEY[\s\S]*keys revoke KEY/,
    );
    const admin = await nodegate('admin', '--help');
    expect(admin.stdout).toContain('admin sign-in-link');
    expect(admin.stdout).toContain('admin set-password');
    expect((await nodegate('config', '--help')).stdout).toContain('config check FILE');
    const which = await nodegate('admin');
    expect(which.code).toBe(2);
    expect(which.stderr).toContain('admin sign-in-link');
  });

  it('--version names the version and the Node.js it runs on', async () => {
    const r = await nodegate('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^nodegate \d+\.\d+\.\d+ \(Node\.js v24\./);
  });
});

describe('each command takes only its own options', () => {
  it('an option of another command is refused, naming the flag and where the help is (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['keys', 'create', '--listen', '127.0.0.1:1'], '--listen'],
      [['keys', 'list', '--allowed-origins', 'https://a.example'], '--allowed-origins'],
      [['start', '--plan', 'team'], '--plan'],
      [['admin', 'sign-in-link', '--password-file', '/tmp/x'], '--password-file'],
      [['config', 'check', 'x.yaml', '--json'], '--json'],
      [['keys', 'revoke', 'abc', '--frobnicate'], '--frobnicate'],
    ];
    for (const [args, flag] of cases) {
      const r = await nodegate(...args);
      const name = `nodegate ${args.slice(0, args[0] === 'start' ? 1 : 2).join(' ')}`;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${name}: unknown option ${flag}`);
      expect(r.stderr).toContain(`${name} --help`);
      expect(r.stdout).toBe('');
    }
  });

  it('a password on the command line is refused with the reason and the ways that work', async () => {
    const r = await nodegate('admin', 'set-password', '--password', 'hunter2hunter2');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --password');
    expect(r.stderr).toContain('never taken from the command line');
    expect(r.stderr).toContain('--password-file');
    expect(r.stderr).not.toContain('hunter2hunter2');
  });

  it('a missing value, a missing or extra argument, a value for a flag that takes none, an unknown command', async () => {
    const missingValue = await nodegate('keys', 'create', '--plan');
    expect(missingValue.stderr).toContain('nodegate keys create: --plan needs a value');
    const missingArg = await nodegate('keys', 'show');
    expect(missingArg.stderr).toContain('nodegate keys show: KEY is missing (usage: nodegate keys show KEY)');
    const extra = await nodegate('keys', 'show', 'a', 'b');
    expect(extra.stderr).toContain('unexpected argument "b"');
    const flagValue = await nodegate('keys', 'list', '--json=yes');
    expect(flagValue.stderr).toContain('--json takes no value');
    const badLevel = await nodegate('start', '--log-level', 'loud');
    expect(badLevel.stderr).toContain('--log-level must be one of silent, error, warn, info, debug');
    const badFormat = await nodegate('start', '--log-format', 'pretty');
    expect(badFormat.stderr).toContain('--log-format must be one of text, json');
    const unknown = await nodegate('keys', 'frob');
    expect(unknown.stderr).toContain('unknown command "keys frob"');
    const flagFirst = await nodegate('--data-dir', 'x', 'keys', 'list');
    expect(flagFirst.stderr).toContain('give the command first');
    for (const r of [missingValue, missingArg, extra, flagValue, badLevel, badFormat, unknown, flagFirst])
      expect(r.code).toBe(2);
  });
});

describe('npx nodegate in the clone', () => {
  it('runs the linked bin on the pinned Node.js 24', async () => {
    const r = await run('npx', ['--no-install', 'nodegate', '--version'], { cwd: REPO });
    expect(r.stdout).toMatch(/^nodegate \d+\.\d+\.\d+ \(Node\.js v24\./);
  });
});
