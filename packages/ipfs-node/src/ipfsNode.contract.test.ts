import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type IpfsNode, startIpfsNode } from './startIpfsNode.js';
import { ipfsContractSuite } from './testing/ipfsContractSuite.js';

let node: IpfsNode;
let repo: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ipfs-node-contract-'));
  node = await startIpfsNode({ repo, port: 0 });
});

afterAll(async () => {
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

ipfsContractSuite('embedded node', () => ({ url: node.apiUrl }));
