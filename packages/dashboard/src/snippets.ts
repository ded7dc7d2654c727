import type { DashboardConfig } from './types';

export interface Endpoint {
  network: string;
  family: string;
  https: string;
  wss: string;
}

/** Every network's endpoints for one key. */
export function endpointsOf(config: DashboardConfig, key: string): Endpoint[] {
  return Object.entries(config.networks).map(([network, n]) => ({
    network,
    family: n.family,
    https: `${n.http}/v3/${key}`,
    wss: `${n.ws}/ws/v3/${key}`,
  }));
}

const SECRET = '<API_KEY_SECRET>';

/** Ready-to-paste client code for one key (the secret is a placeholder: it is never shown again). */
export function snippetsOf(config: DashboardConfig, key: string, requireSecret: boolean) {
  const endpoints = endpointsOf(config, key);
  const eth = endpoints.find((e) => e.family === 'eth') ?? endpoints[0];
  const stark = endpoints.find((e) => e.family === 'starknet');
  const out: { id: string; label: string; code: string }[] = [];
  if (eth) {
    out.push({
      id: 'curl',
      label: 'curl',
      code: [
        `curl ${eth.https} \\`,
        ...(requireSecret ? [`  --user :${SECRET} \\`] : []),
        `  -H 'content-type: application/json' \\`,
        `  --data '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'`,
      ].join('\n'),
    });
    const fetchOptions = requireSecret
      ? `, {\n  fetchOptions: { headers: { authorization: 'Basic ' + btoa(':${SECRET}') } },\n}`
      : '';
    out.push({
      id: 'viem',
      label: 'viem',
      code: [
        `import { createPublicClient, http } from 'viem';`,
        '',
        `const client = createPublicClient({`,
        `  transport: http('${eth.https}'${fetchOptions}),`,
        `});`,
        `console.log(await client.getBlockNumber());`,
      ].join('\n'),
    });
  }
  if (stark) {
    out.push({
      id: 'starknet',
      label: 'starknet.js',
      code: [
        `import { RpcProvider } from 'starknet';`,
        '',
        `const provider = new RpcProvider({ nodeUrl: '${stark.https}'${requireSecret ? `, headers: { authorization: 'Basic ' + btoa(':${SECRET}') }` : ''} });`,
        `console.log(await provider.getBlockNumber());`,
      ].join('\n'),
    });
  }
  if (config.ipfs) {
    out.push({
      id: 'kubo',
      label: 'kubo-rpc-client',
      code: [
        `import { create } from 'kubo-rpc-client';`,
        '',
        `const ipfs = create({`,
        `  url: '${config.ipfs}/api/v0',`,
        `  headers: { authorization: 'Basic ' + btoa('${key}:${SECRET}') },`,
        `});`,
        `const { cid } = await ipfs.add('hello nodegate');`,
        `console.log(cid.toString());`,
      ].join('\n'),
    });
  }
  return out;
}
