import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IPFS_ALLOW } from '../ipfsCommands.js';
import { type IpfsTestGateway, startIpfsTestGateway } from '../startIpfsTestGateway.js';
import { mfsConformanceSkips } from '../mfs/mfsConformanceSkips.js';
import { conformanceSkips } from './conformanceSkips.js';
import { registerInterfaceIpfsCore } from './registerInterfaceIpfsCore.js';

// interface-ipfs-core 0.158.1 through the gateway (kubo-rpc-client 7, basic auth, in front of the
// embedded node it starts): every spawn of the suite is a new key, so each describe block sees a
// tenant of its own, as it would see a fresh node.
let t: IpfsTestGateway;

beforeAll(async () => {
  // beyond the default allowlist: repo/gc (the route's own collection) and id (resolve's tests read it first)
  t = await startIpfsTestGateway({ ipfs: { allow: [...DEFAULT_IPFS_ALLOW, 'repo/gc', 'id'] } });
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

const { unusedSkips } = await registerInterfaceIpfsCore(
  {
    async open() {
      const key = await t.createKey();
      return { url: `${t.ipfsUrl}/api/v0`, headers: { authorization: key.authorization } };
    },
    async clean() {},
  },
  'gateway',
  [...conformanceSkips, ...mfsConformanceSkips],
);

describe('the skip list', () => {
  it('names only tests of the suite (no stale entries)', () => {
    expect(unusedSkips()).toEqual([]);
  });
});
