import { ipfsContractSuite } from '@nodegate/ipfs-node/testing';
import { afterAll, beforeAll } from 'vitest';
import { type HarnessKey, type IpfsRouteHarness, startIpfsRouteHarness } from './startIpfsRouteHarness.js';

// The ipfs-node package's contract suite through the route's post-authentication entry point
// (`route.serve`), with per-key pins recorded in PGlite, in front of the embedded node.
let h: IpfsRouteHarness;
let key: HarnessKey;

beforeAll(async () => {
  h = await startIpfsRouteHarness();
  key = h.createKey();
  // another key's pins must not show up in (or break) this key's pin/ls
  const other = h.createKey();
  const form = new FormData();
  form.append('file', new Blob(['another key’s file\n']));
  await fetch(`${h.ipfsUrl}/api/v0/add`, {
    method: 'POST',
    headers: { authorization: other.authorization },
    body: form,
  });
});

afterAll(async () => {
  await h?.stop();
});

ipfsContractSuite(
  'through route.serve (embedded node, per-key pins)',
  () => ({ url: h.ipfsUrl, headers: { authorization: key.authorization } }),
  { adminCommands: false },
);
