import { ipfsContractSuite } from '@nodegate/ipfs-node/testing';
import { afterAll, beforeAll } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from './startIpfsTestGateway.js';

// The ipfs-node package's contract suite, through the gateway's /api/v0 with basic auth, in
// front of the embedded node the gateway starts itself (the default deployment).
let t: IpfsTestGateway;

beforeAll(async () => {
  t = await startIpfsTestGateway();
});

afterAll(async () => {
  await t?.stop();
});

ipfsContractSuite(
  'through the gateway (embedded node)',
  () => ({ url: t.ipfsUrl, headers: { authorization: t.authorization } }),
  {
    adminCommands: false,
  },
);
