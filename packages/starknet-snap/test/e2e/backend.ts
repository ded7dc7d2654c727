/**
 * The e2e backend: what the snap talks to during the tests. By default nodegate (with its embedded dev chain);
 * switch to the dev chain spoken to directly by changing the default below (or setting SNAP_E2E_BACKEND=devchain).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type BackendKind = 'devchain' | 'gateway';

/** The one line to change to run the e2e suite against the dev chain directly instead of through nodegate. */
export const BACKEND: BackendKind = (process.env.SNAP_E2E_BACKEND as BackendKind | undefined) ?? 'gateway';

/** What the tests and the snap build need to know about the running backend. */
export interface BackendInfo {
  kind: BackendKind;
  /** The network base URL baked into the snap (SNAP_SEPOLIA_URL). */
  baseUrl: string;
  /** The API key baked into the snap (SNAP_SEPOLIA_API_KEY); empty for the dev chain spoken to directly. */
  apiKey: string;
  /** JSON-RPC URL the snap uses (`<base>/v3/<key>` or the base). */
  rpcUrl: string;
  /** JSON-RPC URL the tests use for devnet_* helpers (mint, predeployed accounts). */
  devRpcUrl: string;
  chainId: string;
  /** Class hash of the account class new accounts are deployed with (the older Argent-style version). */
  accountClassHash: string;
  /** Class hash of the newest Argent-style account class (the upgrade target). */
  latestAccountClassHash: string;
  pid: number;
  dataDir: string;
}

const REPO = join(__dirname, '..', '..', '..', '..');

function waitForFile(path: string, child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (existsSync(path)) {
        const text = readFileSync(path, 'utf8');
        try {
          JSON.parse(text);
          clearInterval(timer);
          resolve(text);
        } catch {
          // still being written
        }
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`backend exited with code ${child.exitCode} before writing ${path}`));
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`backend did not write ${path} within ${timeoutMs} ms`));
      }
    }, 100);
  });
}

/**
 * Class hashes of the dev chain's two Argent-style account classes (older first), read from the dev chain's
 * build output so the snap is configured with exactly the classes the chain serves.
 */
function devchainArgentClassHashes(): [string, string] {
  // The package's public entry point exports `nativeClasses`.
  const registry = join(REPO, 'packages', 'starknet-devchain', 'dist', 'index.js');
  assertBuilt(registry, 'starknet-devchain');
  const script = `import(${JSON.stringify(registry)}).then((m) => { const c = m.nativeClasses; process.stdout.write(JSON.stringify(['0x' + c.argentV030.classHash.toString(16), '0x' + c.argentV040.classHash.toString(16)])); })`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as [string, string];
}

function assertBuilt(file: string, pkg: string): void {
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build it first (npx tsc -b packages/${pkg}, or the root npm test's pretest)`);
  }
}

function spawnLogged(args: string[], dataDir: string): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  child.on('exit', (code) => {
    if (code) process.stderr.write(`[e2e backend] exited with ${code}: ${err}\n(data dir ${dataDir})\n`);
  });
  return child;
}

/**
 * Starts the backend on an ephemeral loopback port and waits for its ready file.
 *
 * @returns The backend's description and its process.
 */
export async function startBackend(): Promise<{ info: BackendInfo; child: ChildProcess }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'snap-e2e-'));
  const ready = join(dataDir, 'ready.json');
  const [oldClass, newClass] = devchainArgentClassHashes();
  if (BACKEND === 'devchain') {
    const cli = join(REPO, 'packages', 'starknet-devchain', 'dist', 'cli.js');
    assertBuilt(cli, 'starknet-devchain');
    const child = spawnLogged(
      [cli, '--listen', '127.0.0.1:0', '--data-dir', join(dataDir, 'chain'), '--ready-file', ready],
      dataDir,
    );
    const r = JSON.parse(await waitForFile(ready, child, 60_000)) as { rpc: string; chainId: string };
    return {
      child,
      info: {
        kind: 'devchain',
        baseUrl: r.rpc,
        apiKey: '',
        rpcUrl: r.rpc,
        devRpcUrl: r.rpc,
        chainId: r.chainId,
        accountClassHash: oldClass,
        latestAccountClassHash: newClass,
        pid: child.pid ?? 0,
        dataDir,
      },
    };
  }
  const cli = join(REPO, 'packages', 'gateway', 'dist', 'cli', 'main.js');
  assertBuilt(cli, 'gateway');
  const child = spawnLogged(
    [cli, 'start', '--listen', '127.0.0.1:0', '--data-dir', join(dataDir, 'gw'), '--ready-file', ready],
    dataDir,
  );
  const r = JSON.parse(await waitForFile(ready, child, 120_000)) as {
    networks: Record<string, { family: string; http: string }>;
    devKey: { key: string; secret: string };
  };
  const net = r.networks['starknet-devnet'];
  if (!net) throw new Error('the gateway ready file has no starknet-devnet network');
  const rpcUrl = `${net.http.replace(/\/+$/, '')}/v3/${r.devKey.key}`;
  const chainId = (await (
    await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_chainId', params: {} }),
    })
  ).json()) as { result: string };
  return {
    child,
    info: {
      kind: 'gateway',
      baseUrl: net.http,
      apiKey: r.devKey.key,
      rpcUrl,
      devRpcUrl: rpcUrl,
      chainId: chainId.result,
      accountClassHash: oldClass,
      latestAccountClassHash: newClass,
      pid: child.pid ?? 0,
      dataDir,
    },
  };
}

/**
 * Stops the backend and removes its data directory.
 *
 * @param info - The backend.
 */
export function stopBackend(info: BackendInfo): void {
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  rmSync(info.dataDir, { recursive: true, force: true });
}

/** Where the global setup leaves the backend description for the test files. */
export const BACKEND_FILE = join(__dirname, '..', '..', 'dist', 'e2e', 'backend.json');

/**
 * The running backend, as written by the global setup.
 *
 * @returns The backend description.
 */
export function backendInfo(): BackendInfo {
  return JSON.parse(readFileSync(BACKEND_FILE, 'utf8')) as BackendInfo;
}
