import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { keepAnvilGenesis } from './keepAnvilGenesis.js';
import type { StartedBackend } from './superviseBackend.js';

/** A running embedded backend: where it serves and how to stop it. */
export interface EmbeddedProcess {
  readonly name: string;
  readonly http: string;
  readonly ws?: string | undefined;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Path of the anvil binary shipped by the platform package of @foundry-rs/anvil. */
export function anvilBinaryPath(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil');
  } catch {
    throw new Error(`anvil is not installed for ${process.platform}-${process.arch} (npm package ${pkg})`);
  }
}

let setpriv: string | null | undefined;
/**
 * util-linux `setpriv` on this machine (Linux), which starts a program with a parent-death signal
 * (`--pdeathsig`, the kernel's PR_SET_PDEATHSIG): null when there is none.
 */
function setprivPath(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform === 'linux') {
    for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
      if (dir && existsSync(join(dir, 'setpriv'))) {
        setpriv = join(dir, 'setpriv');
        break;
      }
    }
  }
  return setpriv;
}

/**
 * Starts anvil (the real binary, not the npx wrapper, so stopping it leaves no orphan) on
 * a free loopback port and resolves once it listens. anvil cannot watch its parent itself: on
 * Linux it is started through `setpriv --pdeathsig TERM` (which then becomes anvil: same pid, same
 * command line), so the kernel stops it when the process that started it dies, even by SIGKILL
 * with no watchdog left (`dieWithParent`, on by default; without `setpriv`, only the gateway's
 * watchdog stops it).
 *
 * @example
 * const anvil = await startAnvil({ chainId: 31337 });
 * // anvil.http === 'http://127.0.0.1:40427'
 * await anvil.stop();
 */
export async function startAnvil(
  options: {
    chainId?: number;
    host?: string;
    /** Port to listen on (default 0: a free one). */
    port?: number;
    /**
     * Keep the chain in this file: loaded at start when it exists (after {@link keepAnvilGenesis}
     * left one genesis in it), written every `stateIntervalS` seconds (default 1) and on a
     * graceful stop, which waits up to {@link STATE_STOP_GRACE_MS} for that last write.
     */
    stateFile?: string;
    stateIntervalS?: number;
    /**
     * Seconds between blocks, mined empty or not (anvil's own `--block-time`); transactions wait
     * for the next block. Absent: anvil mines one block per transaction and none without one.
     */
    blockTime?: number;
    args?: string[];
    /** SIGTERM from the kernel when this process dies (Linux with `setpriv`; default true). */
    dieWithParent?: boolean;
  } = {},
): Promise<StartedBackend> {
  const host = options.host ?? '127.0.0.1';
  // each start adds a genesis of its own to the dump: the file must name the chain's before the load
  // (a file that does not parse is left to anvil, which says what is wrong with it)
  if (options.stateFile) await keepAnvilGenesis(options.stateFile).catch(() => undefined);
  const args = [
    '--host',
    host,
    '--port',
    String(options.port ?? 0),
    '--chain-id',
    String(options.chainId ?? 31337),
    ...(options.stateFile
      ? ['--state', options.stateFile, '--state-interval', String(options.stateIntervalS ?? 1)]
      : []),
    ...(options.blockTime === undefined ? [] : ['--block-time', String(options.blockTime)]),
    ...(options.args ?? []),
  ];
  const wrapper = options.dieWithParent === false ? null : setprivPath();
  const child = wrapper
    ? spawn(wrapper, ['--pdeathsig', 'TERM', anvilBinaryPath(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Listening on [^\s:]+:(\d+)/.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(Number(m[1]));
      } else if (out.length > 200_000) {
        out = out.slice(-1000);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`anvil exited (code ${code}) before listening: ${out.slice(-500)}`)));
  });
  child.stderr?.resume();
  // anvil says it listens before it handles SIGTERM: a stop in between would kill it unwritten
  if (options.stateFile) await handlesSigterm(child.pid!, 10_000);
  return {
    name: 'anvil',
    http: `http://${host}:${port}`,
    ws: `ws://${host}:${port}`,
    pid: child.pid!,
    port,
    exited,
    // with a state file, SIGTERM makes anvil write it: a SIGKILL then could cut the write short
    stop: () => stopChild(child, options.stateFile ? STATE_STOP_GRACE_MS : undefined),
  };
}

/**
 * How long a stop waits for an anvil with a state file to exit after SIGTERM (it writes its chain
 * first) before SIGKILL: long enough for a loaded machine, as a killed write leaves a file anvil
 * cannot load.
 */
export const STATE_STOP_GRACE_MS = 30_000;

/**
 * Resolves once process `pid` catches SIGTERM (its `SigCgt` mask in /proc/PID/status), after
 * `timeoutMs` at most, or at once where /proc cannot tell (not Linux, or the process is gone).
 */
async function handlesSigterm(pid: number, timeoutMs: number): Promise<void> {
  const sigterm = 1n << 14n; // signal 15, bit 14
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
    const mask = status && /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1];
    if (!mask || (BigInt(`0x${mask}`) & sigterm) !== 0n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
