import { afterAll, beforeAll } from 'vitest';
import { compareCidsByValue } from './compareCidsByValue.js';
import { conformanceClient, type ConformanceTarget } from './conformanceClient.js';
import { createSkipList, type SkipEntry } from './createSkipList.js';
import { installMochaGlobals } from './installMochaGlobals.js';
import { type EchoServer, startEchoServer } from './startEchoServer.js';
import { useSharedFixtures } from './useSharedFixtures.js';
import { type SuiteCidClass, withSuiteCids } from './withSuiteCids.js';

/** How the run reaches the API under test. */
export interface ConformanceBackend {
  /** A fresh client target for one `factory.spawn()` (a new key, or a new node). */
  open(): Promise<ConformanceTarget>;
  /** `factory.clean()`: releases what the spawns since the last clean opened. */
  clean(): Promise<void>;
}

/** The interface-ipfs-core groups that apply to an API without a peer-to-peer network. */
const GROUPS = ['root', 'block', 'dag', 'pin', 'object', 'repo', 'files', 'miscellaneous'] as const;

/**
 * Registers interface-ipfs-core 0.158.1's groups for an API without a peer-to-peer network
 * (root: add, cat, get, ls, refs; block; dag; pin without pin.remote; object; repo; files;
 * miscellaneous: version, resolve, dns…) as vitest tests against `backend`, each skip of
 * `skips` for `target` applied with its reason, and the echo HTTP server the add-from-URL tests
 * fetch from (`ECHO_SERVER`) running while they do. Must be called at a test file's top level (it
 * awaits the suite's modules and registers file-level hooks). Returns the skip-list entries that named no test, for a check.
 *
 * @example
 * const { unusedSkips } = await registerInterfaceIpfsCore(backend, 'gateway', skips);
 */
export async function registerInterfaceIpfsCore(
  backend: ConformanceBackend,
  target: 'gateway' | 'node',
  skips: readonly SkipEntry[],
): Promise<{ unusedSkips: () => string[] }> {
  useSharedFixtures();
  // the "add from a URL" tests fetch from the echo server aegir's runner would start
  let echo: EchoServer | undefined;
  beforeAll(async () => {
    echo = await startEchoServer();
    process.env.ECHO_SERVER = echo.url;
  });
  afterAll(async () => {
    await echo?.close();
  });
  // the chai the suite asserts with (aegir/chai): CIDs of different multiformats copies compare by value
  compareCidsByValue(((await import('aegir/chai' as string)) as { chai: unknown }).chai);
  const list = createSkipList(skips, target);
  installMochaGlobals(list);
  const suite = (await import('interface-ipfs-core')) as unknown as Record<string, SuiteFn>;
  // the package's index exports the object tests as `pin` (a slip in 0.158.1): load pin's own index
  const pinUrl = new URL('./pin/index.js', import.meta.resolve('interface-ipfs-core'));
  const pin = ((await import(pinUrl.href)) as { default: SuiteFn }).default;
  // the CID class the suite's assertions compare with (its own multiformats copy)
  const cidUrl = new URL('../node_modules/multiformats/src/cid.js', import.meta.resolve('interface-ipfs-core'));
  const { CID: SuiteCID } = (await import(cidUrl.href)) as { CID: SuiteCidClass };
  const factory = {
    spawn: async () => ({ api: withSuiteCids(conformanceClient(await backend.open()) as object, SuiteCID) }),
    clean: () => backend.clean(),
    opts: { type: 'go' },
    controllers: [],
  };
  for (const group of GROUPS) {
    const run = group === 'pin' ? pin : suite[group];
    if (run === undefined) throw new Error(`interface-ipfs-core has no "${group}" group`);
    if (group !== 'pin') {
      run(factory);
      continue;
    }
    // pin.remote needs a remote pinning service (it reads its address when registering): not part of this API
    for (const [name, part] of Object.entries(run as unknown as Record<string, SuiteFn>)) {
      if (name !== 'remote') part(factory, {});
    }
  }
  return { unusedSkips: () => list.unused() };
}

type SuiteFn = (factory: unknown, options?: unknown) => void;
