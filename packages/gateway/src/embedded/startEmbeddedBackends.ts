import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmbeddedBackend, GatewayConfig } from '../config/types.js';
import type { Logger } from '../log/createLogger.js';
import { embeddedBackendsOf } from './embeddedBackendsOf.js';
import { holdDirectoryLock } from './holdDirectoryLock.js';
import { reapStaleChild } from './reapStaleChild.js';
import { anvilBinaryPath, type EmbeddedProcess, startAnvil, stopChild } from './startAnvil.js';
import { ipfsNodeCli, startIpfsNode } from './startIpfsNode.js';
import { devchainCli, startStarknetDevchain } from './startStarknetDevchain.js';
import { type SupervisedBackend, superviseBackend } from './superviseBackend.js';
import { prepareAnvilWelcome } from './welcome/prepareAnvilWelcome.js';

/** The embedded backends of a gateway, supervised. */
export interface EmbeddedBackends {
  readonly backends: ReadonlyMap<EmbeddedBackend, SupervisedBackend>;
  /** Stops every backend (no restarts from then on) and the watchdog. */
  stop(): Promise<void>;
  /** Says the gateway is stopping, at once: the backends' exits from now on are expected (see `stop`). */
  expectStop(): void;
}

/** The pid file of a backend, kept in its data directory. */
const PID_FILE = 'nodegate-child.pid';
/** The supervising gateway's lock on a backend's data directory (its pid). */
const SUPERVISOR_LOCK = 'supervisor.lock';

/**
 * Starts each embedded backend the config names (once, even if several upstreams use it), each
 * under supervision (restarted on the same port when it dies; see {@link superviseBackend}), with
 * its data in the data directory: anvil's chain in `anvil/state.json` (written every second and on
 * stop), the dev chain in `starknet-devchain/`, the IPFS repo in `ipfs/`. Each directory is
 * locked first by this gateway (`supervisor.lock`, its pid: a directory another live gateway
 * supervises is refused, never reaped; the dev chain and the IPFS node also lock it themselves,
 * anvil cannot). Backends left running by a gateway that was killed are then reaped (their pid
 * files), and a watchdog process stops the backends if this gateway is killed; anvil also gets
 * SIGTERM from the kernel when its parent dies (`startAnvil`), the other two check by themselves.
 */
export async function startEmbeddedBackends(
  config: GatewayConfig,
  progress: (line: string) => void,
  log: Logger,
): Promise<EmbeddedBackends> {
  const wanted = embeddedBackendsOf(config);
  const started = new Map<EmbeddedBackend, SupervisedBackend>();
  const pidFiles: string[] = [];
  const locks: Array<() => Promise<void>> = [];
  let watchdog: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all([...started.values()].map((p) => p.stop()));
    if (watchdog) await stopChild(watchdog, 1_000);
    await Promise.all(locks.map((release) => release()));
  };
  try {
    // every backend settles (started or failed) before a failure stops them all: none is left behind
    const results = await Promise.allSettled(
      [...wanted].map(async ([backend, chainId]) => {
        const plan = planBackend(backend, config, chainId, progress, log);
        await mkdir(plan.dir, { recursive: true, mode: 0o700 });
        locks.push(
          await holdDirectoryLock(join(plan.dir, SUPERVISOR_LOCK), `the ${backend} data directory ${plan.dir}`),
        );
        const pidFile = join(plan.dir, PID_FILE);
        const reaped = await reapStaleChild(pidFile);
        if (reaped !== undefined) {
          progress(`stopped a ${backend} (pid ${reaped}) left running by an earlier gateway`);
          log.warn('stopped an embedded backend left running by an earlier gateway', { backend, pid: reaped });
        }
        progress(`starting embedded ${backend}…`);
        await plan.prepare?.();
        const proc = await superviseBackend({ name: backend, start: plan.start, pidFile, marker: plan.marker, log });
        started.set(backend, proc);
        pidFiles.push(pidFile);
        progress(`embedded ${backend} listening on ${proc.http} (data in ${plan.dir})`);
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    if (pidFiles.length > 0) {
      const script = new URL('./watchdog.js', import.meta.url).pathname;
      watchdog = spawn(process.execPath, [script, String(process.pid), ...pidFiles], { stdio: 'ignore' });
      watchdog.unref();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    backends: started,
    stop,
    expectStop: () => {
      for (const p of started.values()) p.expectStop();
    },
  };
}

/**
 * Where a backend keeps its data, what runs once before it first starts (the welcome state of a
 * new anvil chain), how it starts on a port, and what its command line contains.
 */
function planBackend(
  backend: EmbeddedBackend,
  config: GatewayConfig,
  chainId: string | undefined,
  progress: (line: string) => void,
  log: Logger,
): {
  dir: string;
  marker: string;
  prepare?: () => Promise<void>;
  start: (port: number) => ReturnType<typeof startAnvil>;
} {
  switch (backend) {
    case 'anvil': {
      const dir = join(config.dataDir, 'anvil');
      const stateFile = join(dir, 'state.json');
      const id = chainId === undefined ? undefined : Number.parseInt(chainId, 16);
      // a new chain (no state file yet) gets the welcome state; a failure leaves it empty, never stops the start
      const prepare = async () => {
        try {
          const done = await prepareAnvilWelcome({ stateFile, chainId: id });
          if (done.prepared) progress('anvil: a new chain with the welcome state (the README names it)');
        } catch (err) {
          log.warn('the new anvil chain could not be given the welcome state; it starts empty', {
            error: (err as Error).message,
          });
        }
      };
      return {
        dir,
        marker: stateFile,
        ...(config.embedded.welcome ? { prepare } : {}),
        start: (port) =>
          startAnvil({
            port,
            stateFile,
            ...(id === undefined ? {} : { chainId: id }),
            ...blockTimeOf(config, 'anvil'),
          }),
      };
    }
    case 'starknet-devchain': {
      const dir = join(config.dataDir, 'starknet-devchain');
      return {
        dir,
        marker: dir,
        start: (port) =>
          startStarknetDevchain({
            dataDir: dir,
            port,
            ...(chainId === undefined ? {} : { chainId }),
            ...blockTimeOf(config, 'starknet-devchain'),
            welcome: config.embedded.welcome,
          }),
      };
    }
    case 'ipfs-node': {
      const dir = join(config.dataDir, 'ipfs');
      return { dir, marker: dir, start: (port) => startIpfsNode({ repo: dir, port }) };
    }
  }
}

/** A dev chain's block time as a start option (none: it mines on demand). */
function blockTimeOf(config: GatewayConfig, chain: 'anvil' | 'starknet-devchain'): { blockTime?: number } {
  const blockTime = config.embedded[chain].blockTime;
  return blockTime === undefined ? {} : { blockTime };
}

// The command lines the markers are found in (for the README and tests): anvil's binary, the CLIs.
export const embeddedCommands = { anvil: anvilBinaryPath, 'starknet-devchain': devchainCli, 'ipfs-node': ipfsNodeCli };
export type { EmbeddedProcess };
