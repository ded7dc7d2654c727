/**
 * The Node integration harness: the real nodegate snap (built against a real nodegate gateway with its embedded
 * dev chain) running in @metamask/snaps-simulation, behind an EIP-1193 provider that answers like MetaMask
 * (`wallet_getSnaps`, `wallet_requestSnaps`, `wallet_invokeSnap`), with a scripted "user" who approves or refuses
 * the snap's dialogs. The connector under test is the real one.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getInterface, getOptions, installSnap } from '@metamask/snaps-simulation';
import { hash } from 'starknet';
import { SN_MAIN } from '../constants.js';
import { createNodegateWallet, type NodegateWallet } from '../createNodegateWallet.js';
import type { Eip1193Provider } from '../types.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SNAP_PKG = join(REPO, 'packages', 'starknet-snap');
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

/** Options of {@link startWalletHarness}. */
export interface WalletHarnessOptions {
  /** The recovery phrase MetaMask holds (the snap's keys derive from it). */
  secretRecoveryPhrase?: string;
  /**
   * Serve a second network, Starknet mainnet (`SN_MAIN`), through the same nodegate: a second dev chain started with
   * that chain id, behind a `starknet-mainnet` network of a nodegate config file, baked into the snap as its mainnet.
   * Without it the snap's mainnet is a closed port.
   */
  mainnet?: boolean;
}

/** What the "user" answers to the snap's next dialogs (a queue; empty = approve). */
export interface HarnessUser {
  /** Answers queued for the next dialogs, in order. */
  answers: boolean[];
  /** How many dialogs were shown. */
  dialogs: number;
}

/** A running harness. */
export interface WalletHarness {
  /** The connector under test, wired to the simulated MetaMask. */
  wallet: NodegateWallet;
  /** The simulated MetaMask provider (EIP-1193). */
  provider: Eip1193Provider & { requests: string[] };
  /** The scripted user driving the snap's dialogs. */
  user: HarnessUser;
  /** nodegate's Starknet JSON-RPC URL (`<http>/v3/<key>`), the same endpoint the snap uses. */
  rpcUrl: string;
  /** The dev chain's chain id. */
  chainId: string;
  /** With `mainnet`: nodegate's Starknet JSON-RPC URL of the mainnet dev chain. */
  mainnetRpcUrl?: string;
  /** A JSON-RPC call to nodegate (dev chain helpers and independent checks). */
  rpc<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** The same on a network by chain id: the test network (`chainId`), or `SN_MAIN` with `mainnet`. */
  rpcOn<T = unknown>(chain: string, method: string, params?: Record<string, unknown>): Promise<T>;
  /**
   * Polls until the transaction is accepted (L2 or L1) on the network (default the test network), or throws after
   * `timeoutMs` (default 60 s).
   */
  waitAccepted(
    txHash: string,
    chain?: string,
    timeoutMs?: number,
  ): Promise<{ finality_status: string; execution_status?: string }>;
  /** STRK balance (u256) of an address on the network (default the test network), read from the chain. */
  strkBalance(address: string, chain?: string): Promise<bigint>;
  /**
   * Setup, as a wallet UI would: mints `amount` FRI (default 10^20) to the snap's account at index 0 on the network
   * (default the test network), deploys it through the snap (`stk_createAccount {deploy: true}`, its dialog answered
   * by the user) and waits until the deployment is accepted. The snap must be installed (connect first).
   */
  fundAndDeploy(address: string, options?: { chain?: string; amount?: bigint }): Promise<void>;
  /** Stops the snap, the file server and nodegate. */
  close(): Promise<void>;
}

function waitForJson(path: string, child: ChildProcess, timeoutMs: number, what = 'nodegate'): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (existsSync(path)) {
        try {
          const parsed = JSON.parse(readFileSync(path, 'utf8'));
          clearInterval(timer);
          resolve(parsed);
          return;
        } catch {
          // still being written
        }
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${what} exited with ${child.exitCode} before writing ${path}`));
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`${what} did not write ${path} within ${timeoutMs} ms`));
      }
    }, 100);
  });
}

/** The dev chain's two Argent-style account classes (older first), read from its build output. */
function argentClassHashes(): [string, string] {
  const registry = join(REPO, 'packages', 'starknet-devchain', 'dist', 'index.js');
  const script = `import(${JSON.stringify(registry)}).then((m) => { const c = m.nativeClasses; process.stdout.write(JSON.stringify(['0x' + c.argentV030.classHash.toString(16), '0x' + c.argentV040.classHash.toString(16)])); })`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as [
    string,
    string,
  ];
}

const MIME: Record<string, string> = { '.json': 'application/json', '.js': 'text/javascript', '.svg': 'image/svg+xml' };

/** Serves a directory on an ephemeral loopback port (snaps-simulation fetches `local:` snaps over HTTP). */
function serveDir(root: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/')));
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

/**
 * Starts nodegate (embedded dev chain), builds the snap against it, runs it in snaps-simulation and returns the
 * connector wired to it.
 *
 * @param options - The recovery phrase.
 * @returns The harness.
 */
export async function startWalletHarness(options: WalletHarnessOptions = {}): Promise<WalletHarness> {
  const work = mkdtempSync(join(tmpdir(), 'get-starknet-it-'));
  const ready = join(work, 'ready.json');
  // The snap is built inside the repository, so the build resolves its dependencies (@metamask/snaps-sdk).
  const itDir = join(REPO, 'packages', 'get-starknet', 'dist');
  mkdirSync(itDir, { recursive: true });
  const out = mkdtempSync(join(itDir, 'it-snap-'));
  const cli = join(REPO, 'packages', 'gateway', 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npx tsc -b first`);
  const children: ChildProcess[] = [];
  const stopChildren = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    const gatewayArgs = [
      cli,
      'start',
      '--listen',
      '127.0.0.1:0',
      '--data-dir',
      join(work, 'gw'),
      '--ready-file',
      ready,
    ];
    if (options.mainnet) {
      // The mainnet dev chain, then a nodegate config with both networks (no Ethereum or IPFS backends).
      const devchainCli = join(REPO, 'packages', 'starknet-devchain', 'dist', 'cli.js');
      const mainReady = join(work, 'mainnet-ready.json');
      const devchain = spawn(
        process.execPath,
        [
          devchainCli,
          '--listen',
          '127.0.0.1:0',
          '--chain-id',
          'SN_MAIN',
          '--data-dir',
          join(work, 'mainnet'),
          '--ready-file',
          mainReady,
        ],
        { cwd: REPO, stdio: 'ignore' },
      );
      children.push(devchain);
      const { rpc: mainnetNode } = (await waitForJson(mainReady, devchain, 60_000, 'the mainnet dev chain')) as {
        rpc: string;
      };
      const config = join(work, 'nodegate.json');
      writeFileSync(
        config,
        JSON.stringify({
          listen: '127.0.0.1:0',
          dataDir: join(work, 'gw'),
          devKey: true,
          networks: [
            {
              name: 'starknet-devnet',
              family: 'starknet',
              chainId: 'SN_SEPOLIA',
              dev: true,
              pathPrefix: '/starknet-devnet',
              upstreams: [{ name: 'starknet-devchain', embedded: 'starknet-devchain' }],
            },
            {
              name: 'starknet-mainnet',
              family: 'starknet',
              chainId: 'SN_MAIN',
              dev: true,
              pathPrefix: '/starknet-mainnet',
              upstreams: [{ name: 'devchain-mainnet', http: mainnetNode }],
            },
          ],
        }),
      );
      gatewayArgs.push('--config', config);
    }
    const gateway = spawn(process.execPath, gatewayArgs, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(gateway);
    let stderr = '';
    gateway.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const r = (await waitForJson(ready, gateway, 120_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${stderr}`);
    })) as { networks: Record<string, { http: string }>; devKey: { key: string } };
    const net = r.networks['starknet-devnet'];
    if (!net) throw new Error('the gateway ready file has no starknet-devnet network');
    const mainnet = options.mainnet ? r.networks['starknet-mainnet'] : undefined;
    if (options.mainnet && !mainnet) throw new Error('the gateway ready file has no starknet-mainnet network');
    const rpcUrlOf = (http: string) => `${http.replace(/\/+$/, '')}/v3/${r.devKey.key}`;
    const rpcUrl = rpcUrlOf(net.http);
    const mainnetRpcUrl = mainnet ? rpcUrlOf(mainnet.http) : undefined;
    let rpcId = 0;
    const call = async <T>(url: string, method: string, params: Record<string, unknown> = {}): Promise<T> => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
      });
      const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
      if (body.error)
        throw new Error(`${method}: ${body.error.code} ${body.error.message} ${JSON.stringify(body.error.data)}`);
      return body.result as T;
    };
    const rpc = <T>(method: string, params?: Record<string, unknown>) => call<T>(rpcUrl, method, params);
    const chainId = await rpc<string>('starknet_chainId');
    const rpcOn = <T>(chain: string, method: string, params?: Record<string, unknown>): Promise<T> => {
      if (BigInt(chain) === BigInt(chainId)) return call<T>(rpcUrl, method, params);
      if (BigInt(chain) === BigInt(SN_MAIN) && mainnetRpcUrl) return call<T>(mainnetRpcUrl, method, params);
      throw new Error(`the harness serves no network ${chain}`);
    };
    const waitAccepted = async (txHash: string, chain = chainId, timeoutMs = 60_000) => {
      const start = Date.now();
      for (;;) {
        const s = await rpcOn<{ finality_status: string; execution_status?: string }>(
          chain,
          'starknet_getTransactionStatus',
          { transaction_hash: txHash },
        ).catch(() => undefined);
        if (s && (s.finality_status === 'ACCEPTED_ON_L2' || s.finality_status === 'ACCEPTED_ON_L1')) return s;
        if (Date.now() - start > timeoutMs) throw new Error(`${txHash} not accepted within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // Build the snap against this nodegate (as the snap's own e2e global setup does).
    mkdirSync(join(out, 'images'), { recursive: true });
    copyFileSync(join(SNAP_PKG, 'package.json'), join(out, 'package.json'));
    copyFileSync(join(SNAP_PKG, 'snap.manifest.json'), join(out, 'snap.manifest.json'));
    copyFileSync(join(SNAP_PKG, 'images', 'icon.svg'), join(out, 'images', 'icon.svg'));
    const [oldClass, newClass] = argentClassHashes();
    const build = spawnSync(join(REPO, 'node_modules', '.bin', 'mm-snap'), ['build'], {
      cwd: SNAP_PKG,
      encoding: 'utf8',
      env: {
        ...process.env,
        SNAP_OUT_DIR: out,
        SNAP_SEPOLIA_URL: net.http,
        SNAP_SEPOLIA_API_KEY: r.devKey.key,
        SNAP_SEPOLIA_ACCOUNT_CLASS_HASH: oldClass,
        SNAP_SEPOLIA_LATEST_ACCOUNT_CLASS_HASH: newClass,
        ...(mainnet
          ? {
              SNAP_MAINNET_URL: mainnet.http,
              SNAP_MAINNET_API_KEY: r.devKey.key,
              SNAP_MAINNET_ACCOUNT_CLASS_HASH: oldClass,
              SNAP_MAINNET_LATEST_ACCOUNT_CLASS_HASH: newClass,
            }
          : { SNAP_MAINNET_URL: 'http://127.0.0.1:9/starknet-mainnet', SNAP_MAINNET_API_KEY: '' }),
      },
    });
    if (build.status !== 0) throw new Error(`building the snap failed:\n${build.stdout}\n${build.stderr}`);
    const { server, port } = await serveDir(out);
    const snapId = `local:http://localhost:${port}`;

    const simOptions = {
      secretRecoveryPhrase:
        options.secretRecoveryPhrase ?? 'test test test test test test test test test test test ball',
    };
    const snap = await installSnap(snapId as never, { options: simOptions });

    // The "user": takes each dialog the snap shows, in order, and answers it from the queue (default approve).
    const user: HarnessUser = { answers: [], dialogs: 0 };
    let closed = false;
    const sagaOptions = getOptions(simOptions);
    void (async () => {
      while (!closed) {
        const ui = (await snap
          .runSaga(getInterface, snap.runSaga, snap.snapId, snap.controllerMessenger, sagaOptions)
          .toPromise()) as { ok?: () => Promise<void>; cancel?: () => Promise<void> };
        if (closed) return;
        user.dialogs += 1;
        const approve = user.answers.length > 0 ? user.answers.shift() !== false : true;
        if (approve || !ui.cancel) await ui.ok?.();
        else await ui.cancel();
      }
    })().catch(() => {});

    let installed = false;
    const requests: string[] = [];
    const provider: Eip1193Provider & { requests: string[] } = {
      requests,
      async request({ method, params }) {
        requests.push(method);
        const entry = { [snapId]: { id: snapId, version: '0.1.0', enabled: true, blocked: false } };
        switch (method) {
          case 'wallet_getSnaps':
            return installed ? entry : {};
          case 'wallet_requestSnaps':
            installed = true;
            return entry;
          case 'wallet_invokeSnap': {
            const p = params as { snapId: string; request: { method: string; params?: Record<string, unknown> } };
            if (!installed || p.snapId !== snapId) {
              throw Object.assign(new Error(`Unauthorized to perform action on "${p.snapId}"`), { code: 4100 });
            }
            const { response } = (await snap.request({
              origin: 'https://dapp.example',
              method: p.request.method,
              params: (p.request.params ?? {}) as never,
            })) as unknown as { response: { result?: unknown; error?: unknown } };
            if (response.error !== undefined) {
              const e = response.error as { code?: number; message?: string; data?: unknown };
              throw Object.assign(new Error(e.message ?? 'snap error'), { code: e.code, data: e.data });
            }
            return response.result;
          }
          default:
            throw Object.assign(new Error(`method ${method} not supported by the harness`), { code: -32601 });
        }
      },
    };
    const wallet = createNodegateWallet({ provider, snapId, chainId });
    return {
      wallet,
      provider,
      user,
      rpcUrl,
      chainId,
      ...(mainnetRpcUrl ? { mainnetRpcUrl } : {}),
      rpc,
      rpcOn,
      waitAccepted,
      async strkBalance(address, chain = chainId) {
        const words = await rpcOn<string[]>(chain, 'starknet_call', {
          request: {
            contract_address: STRK,
            entry_point_selector: hash.getSelectorFromName('balance_of'),
            calldata: [address],
          },
          block_id: 'latest',
        });
        return BigInt(words[0] ?? 0) + (BigInt(words[1] ?? 0) << 128n);
      },
      async fundAndDeploy(address, { chain = chainId, amount = 10n ** 20n } = {}) {
        await rpcOn(chain, 'devnet_mint', { address, amount: `0x${amount.toString(16)}`, unit: 'FRI' });
        const deployed = (await provider.request({
          method: 'wallet_invokeSnap',
          params: {
            snapId,
            request: { method: 'stk_createAccount', params: { chainId: chain, addressIndex: 0, deploy: true } },
          },
        })) as { transaction_hash: string };
        await waitAccepted(deployed.transaction_hash, chain);
      },
      async close() {
        closed = true;
        await snap.executionService.terminateAllSnaps().catch(() => {});
        await new Promise((resolve) => server.close(resolve));
        stopChildren();
        rmSync(work, { recursive: true, force: true });
        rmSync(out, { recursive: true, force: true });
      },
    };
  } catch (error) {
    stopChildren();
    rmSync(work, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
}
