// `npm run bench -- ipfs [--size MiB] [--runs N] [--warmup N] [--gateway URL --auth key:secret | --no-gateway]`
//
// add and cat of one large file (100 MiB by default), same run, same kind of blockstore:
//   bare     ipfs-unixfs-importer / ipfs-unixfs-exporter straight on a blockstore-fs store
//   node     the embedded node's Kubo RPC API over HTTP (its own process, as the gateway runs it;
//            raw node:http client, streamed)
//   gateway  the same HTTP calls through nodegate's /api/v0 with basic auth: a gateway started here
//            (`nodegate start`, its own process, IPFS upstream = the node above), or --gateway URL
// Every measurement imports fresh pseudo-random content (no deduplication between columns).
// Prints MiB/s (median of the runs, after warm-up runs) and each column's ratio to the bare baseline.
// Then, with a gateway started here: dedicated gateway reads (GET /ipfs-gateway/dev/ipfs/<cid>) of a
// 1 MiB and a `--size` MiB file, cold and warm, against the node's own cat, and time to first byte
// (bench/support/gatewayReads.ts; `--gateway-sizes 1,100` chooses the sizes). The gateway's account is
// not paced to its plan here (the meter counts, never waits) unless `--paced`.
import { createCipheriv, createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FsBlockstore } from 'blockstore-fs';
import { exporter } from 'ipfs-unixfs-exporter';
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import type { CID } from 'multiformats/cid';
import { spawnJsonLine, spawnUntilFile, stop } from './support/children.js';
import { benchGatewayReads } from './support/gatewayReads.js';
import { startGatewayProcess } from './support/startGatewayProcess.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    gateway: { type: 'string' },
    auth: { type: 'string' },
    'no-gateway': { type: 'boolean' },
    'gateway-sizes': { type: 'string' },
    /** Keep the dedicated gateway's account paced to its plan (team: 128 MiB/s), as `npm start` does. */
    paced: { type: 'boolean' },
  },
});
const MiB = 1024 * 1024;
const size = Number(values.size) * MiB;
const runs = Number(values.runs);
const warmup = Number(values.warmup);

/** Deterministic pseudo-random content, 1 MiB at a time (AES-256-CTR keystream). */
function* content(seed: string): Generator<Uint8Array> {
  const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
  const zeros = new Uint8Array(MiB);
  for (let left = size; left > 0; left -= MiB) yield cipher.update(zeros.subarray(0, Math.min(MiB, left)));
}

/** Kubo's default import settings (the node uses the same). */
const kuboDefaults = {
  cidVersion: 0 as const,
  rawLeaves: false,
  reduceSingleLeafToSelf: true,
  chunker: fixedSize({ chunkSize: 262144 }),
  layout: balanced({ maxChildrenPerNode: 174 }),
};

interface Target {
  add(seed: string): Promise<string>;
  cat(cid: string): Promise<number>;
}

function bare(store: FsBlockstore): Target {
  return {
    async add(seed) {
      let root: CID | undefined;
      for await (const entry of importer([{ content: content(seed) }], store, kuboDefaults)) root = entry.cid;
      return root!.toString();
    },
    async cat(cid) {
      const entry = await exporter(cid, store);
      if (entry.type !== 'file') throw new Error('not a file');
      let n = 0;
      for await (const chunk of entry.content()) n += chunk.byteLength;
      return n;
    },
  };
}

function http(base: string, headers: Record<string, string>): Target {
  const call = (path: string, extra: Record<string, string>, body?: (req: ReturnType<typeof request>) => void) =>
    new Promise<{ status: number; text: string; bytes: number }>((resolve, reject) => {
      const req = request(`${base}/api/v0/${path}`, { method: 'POST', headers: { ...headers, ...extra } }, (res) => {
        let text = '';
        let bytes = 0;
        const keepText = !(res.headers['x-stream-output'] === '1' && res.statusCode === 200);
        res.on('data', (c: Buffer) => {
          bytes += c.byteLength;
          if (keepText) text += c.toString();
        });
        res.on('end', () => {
          const err = res.trailers['x-stream-error'];
          if (err) reject(new Error(`stream error: ${err}`));
          else resolve({ status: res.statusCode ?? 0, text, bytes });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (body) body(req);
      else req.end();
    });
  return {
    async add(seed) {
      const boundary = 'nodegate-bench';
      const res = await call(
        'add?pin=false',
        { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
        (req) => {
          req.write(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          );
          const chunks = content(seed);
          const pump = () => {
            for (let next = chunks.next(); !next.done; next = chunks.next()) {
              if (!req.write(next.value)) {
                req.once('drain', pump);
                return;
              }
            }
            req.end(`\r\n--${boundary}--\r\n`);
          };
          pump();
        },
      );
      if (res.status !== 200) throw new Error(`add: ${res.status} ${res.text}`);
      const last = JSON.parse(res.text.trim().split('\n').at(-1)!) as { Hash: string };
      return last.Hash;
    },
    async cat(cid) {
      const res = await call(`cat?arg=${cid}`, {});
      if (res.status !== 200) throw new Error(`cat: ${res.status} ${res.text}`);
      return res.bytes;
    },
  };
}

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Runs every column once per round, rounds interleaved, so the columns share the machine's
 * conditions (page-cache writeback of earlier runs, other load) instead of one column paying
 * for the dirty pages the previous one left.
 */
async function measure(columns: Array<[string, Target]>): Promise<Array<[string, { add: number; cat: number }]>> {
  const adds = columns.map(() => [] as number[]);
  const cats = columns.map(() => [] as number[]);
  for (let round = -warmup; round < runs; round++) {
    for (const [i, [name, target]] of columns.entries()) {
      // warm-up rounds (negative) are not counted: they let the JIT of each column warm up alike
      const added = await time(() => target.add(`${name}-${round}-${Date.now()}`));
      const read = await time(() => target.cat(added.value));
      if (read.value !== size) throw new Error(`${name}: cat returned ${read.value} bytes, expected ${size}`);
      if (round < 0) continue;
      adds[i]!.push(size / MiB / (added.ms / 1000));
      cats[i]!.push(size / MiB / (read.ms / 1000));
    }
  }
  return columns.map(([name], i) => [name, { add: median(adds[i]!), cat: median(cats[i]!) }]);
}

const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-ipfs-'));
const cli = join(dirname(createRequire(import.meta.url).resolve('@nodegate/ipfs-node')), 'cli.js');
const ready = join(dir, 'ready.json');
const nodeProcess = await spawnUntilFile(
  process.execPath,
  [cli, '--listen', '127.0.0.1:0', '--repo', join(dir, 'repo'), '--ready-file', ready],
  ready,
);
const node = { apiUrl: (nodeProcess.value as { api: string }).api };
let gateway: ChildProcess | undefined;
let proxyChild: ChildProcess | undefined;
let dedicatedGateway: string | undefined;
try {
  if (values.gateway === undefined && values['no-gateway'] !== true) {
    // a nodegate gateway in its own process, serving only IPFS, in front of the node above
    const { child: gatewayChild, ready: started } = await startGatewayProcess(dir, {
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', http: node.apiUrl } },
      // the dedicated gateway's account (the operator's, plan `team`) is paced to its plan's
      // 128 MiB/s: lifted here (unless --paced), so the figures are the gateway's own cost; the
      // meter still counts every byte, it never has to wait
      ...(values.paced === true ? {} : { plans: { team: { ipfsServedBytesPerSecond: 2 ** 40 } } }),
    });
    gateway = gatewayChild;
    values.gateway = started.ipfs;
    dedicatedGateway = (started as { ipfsGateway?: string }).ipfsGateway;
    values.auth = `${started.devKey.key}:${started.devKey.secret}`;
  }
  // the bare baseline writes to the node's own blockstore directory (blockstore-fs, same layout)
  const store = new FsBlockstore(join(dir, 'repo', 'blocks'));
  await store.open();
  const columns: Array<[string, Target]> = [
    ['bare importer/exporter', bare(store)],
    ['embedded node (HTTP)', http(node.apiUrl, {})],
  ];
  if (values.gateway !== undefined) {
    const headers: Record<string, string> = {};
    if (values.auth !== undefined) headers.authorization = `Basic ${Buffer.from(values.auth).toString('base64')}`;
    columns.push(['through the gateway', http(values.gateway.replace(/\/$/, ''), headers)]);
  }
  const results = await measure(columns);
  const base = results[0]![1];
  console.log(
    `IPFS add/cat of ${size / MiB} MiB, median of ${runs} interleaved runs after ${warmup} warm-up (MiB/s, ratio to bare)`,
  );
  console.log(
    `${'column'.padEnd(26)}${'add MiB/s'.padStart(12)}${'ratio'.padStart(8)}${'cat MiB/s'.padStart(12)}${'ratio'.padStart(8)}`,
  );
  for (const [name, r] of results) {
    console.log(
      `${name.padEnd(26)}${r.add.toFixed(1).padStart(12)}${(r.add / base.add).toFixed(2).padStart(8)}${r.cat.toFixed(1).padStart(12)}${(r.cat / base.cat).toFixed(2).padStart(8)}`,
    );
  }
  if (dedicatedGateway !== undefined && values.gateway !== undefined && values.auth !== undefined) {
    // the bare stream proxy: its own process, like the gateway
    const proxy = await spawnJsonLine(process.execPath, [
      '--import',
      'tsx',
      join(dirname(fileURLToPath(import.meta.url)), 'support', 'bareStreamProxy.ts'),
      node.apiUrl,
    ]);
    proxyChild = proxy.child;
    await benchGatewayReads({
      proxyBase: (proxy.value as { url: string }).url,
      gatewayBase: dedicatedGateway,
      apiBase: values.gateway.replace(/\/$/, ''),
      nodeApi: node.apiUrl,
      authorization: `Basic ${Buffer.from(values.auth).toString('base64')}`,
      sizes: (values['gateway-sizes'] ?? `1,${size / MiB}`).split(',').map(Number),
      runs,
      warmup,
      pids: { gateway: gateway?.pid, proxy: proxyChild.pid },
    });
  }
} finally {
  if (gateway) await stop(gateway);
  if (proxyChild) await stop(proxyChild);
  await stop(nodeProcess.child);
  await rm(dir, { recursive: true, force: true });
}
