import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import { describe, expect, it } from 'vitest';
import { mfsConformanceSkips } from '../mfs/mfsConformanceSkips.js';
import { conformanceSkips } from './conformanceSkips.js';
import { registerInterfaceIpfsCore } from './registerInterfaceIpfsCore.js';

// interface-ipfs-core 0.158.1 against the embedded node directly (kubo-rpc-client 7, no gateway):
// every spawn of the suite starts a node of its own on a fresh repo, as ipfsd-ctl would.
const open: Array<{ node: IpfsNode; repo: string }> = [];

const { unusedSkips } = await registerInterfaceIpfsCore(
  {
    async open() {
      const repo = await mkdtemp(join(tmpdir(), 'nodegate-conformance-'));
      const node = await startIpfsNode({ repo });
      open.push({ node, repo });
      return { url: `${node.apiUrl}/api/v0` };
    },
    async clean() {
      for (const { node, repo } of open.splice(0)) {
        await node.close();
        await rm(repo, { recursive: true, force: true });
      }
    },
  },
  'node',
  [...conformanceSkips, ...mfsConformanceSkips],
);

describe('the skip list', () => {
  it('names only tests of the suite (no stale entries)', () => {
    expect(unusedSkips()).toEqual([]);
  });
});
