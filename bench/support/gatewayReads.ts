import { createCipheriv, createHash } from 'node:crypto';
import { request } from 'node:http';
import { processCpuMs, rssMb } from './processProbe.js';

// Dedicated gateway reads for `npm run bench -- ipfs`: a file added (pinned) through the
// gateway's /api/v0, then read by GET through the development account's dedicated gateway (path
// form) and by the embedded node's own `cat` (POST /api/v0/cat), in the same run, rounds
// interleaved. Cold: the first read of content just added (a fresh file per read, for each
// side); warm: the same content read again. Time to first byte: from the request to the first
// body byte, warm, on the small file. A bare stream proxy (bareStreamProxy.ts: node:http in and
// out, the node's answer piped through, nothing else) is read in the same rounds: the least any
// Node proxy hop costs on this machine, so what is the gateway's own and what is the hop's shows.
// With the processes' pids, the CPU each hop used per read (every thread of the process, its
// collector's helpers too; cold and warm reads together) and their RSS at the end.

const MiB = 1024 * 1024;

/** One streamed read: bytes, milliseconds to the first body byte and to the end. */
interface Read {
  readonly bytes: number;
  readonly ttfbMs: number;
  readonly ms: number;
}

function read(url: string, init: { method: string; headers?: Record<string, string> }): Promise<Read> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers ?? {} }, (res) => {
      let bytes = 0;
      let first: number | undefined;
      res.on('data', (c: Buffer) => {
        first ??= performance.now();
        bytes += c.byteLength;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        const end = performance.now();
        resolve({ bytes, ttfbMs: (first ?? end) - start, ms: end - start });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Adds `size` pseudo-random bytes (from `seed`) through `/api/v0/add`, pinned; the root CID. */
function add(apiBase: string, authorization: string, size: number, seed: string): Promise<string> {
  const boundary = 'nodegate-bench-gw';
  return new Promise((resolve, reject) => {
    const req = request(
      `${apiBase}/api/v0/add?pin=true`,
      {
        method: 'POST',
        headers: {
          authorization,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`add: ${res.statusCode} ${text}`));
          resolve((JSON.parse(text.trim().split('\n').at(-1)!) as { Hash: string }).Hash);
        });
      },
    );
    req.on('error', reject);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
    const zeros = new Uint8Array(MiB);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(MiB, left);
        left -= n;
        if (!req.write(cipher.update(zeros.subarray(0, n)))) return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** What the gateway-read part prints, per file size. */
export interface GatewayReadFigures {
  readonly sizeMiB: number;
  readonly cold: { readonly gateway: number; readonly node: number; readonly proxy: number };
  readonly warm: { readonly gateway: number; readonly node: number; readonly proxy: number };
  readonly ttfbMs: { readonly gateway: number; readonly node: number };
  /** CPU ms per read, cold and warm together (undefined without the pids). */
  readonly cpuMs: { readonly gateway: number | undefined; readonly proxy: number | undefined };
}

/**
 * Measures dedicated-gateway reads against the node's own `cat` for each size (MiB/s, median of
 * `runs` rounds after `warmup`), and prints a table with the ratios (goal: gateway/node ≥ 0.8).
 *
 * @example
 * await benchGatewayReads({ gatewayBase: ready.ipfsGateway, apiBase: ready.ipfs, nodeApi, authorization, sizes: [1, 100], runs: 5, warmup: 1 });
 */
export async function benchGatewayReads(options: {
  gatewayBase: string;
  apiBase: string;
  nodeApi: string;
  /** The bare stream proxy in front of the node (`GET /ipfs/<cid>`). */
  proxyBase: string;
  authorization: string;
  sizes: readonly number[];
  runs: number;
  warmup: number;
  /** The gateway's and the bare proxy's processes, for their CPU per read and RSS. */
  pids?: { gateway?: number | undefined; proxy?: number | undefined };
}): Promise<GatewayReadFigures[]> {
  const figures: GatewayReadFigures[] = [];
  for (const sizeMiB of options.sizes) {
    const size = Math.round(sizeMiB * MiB);
    const rate = (r: Read) => {
      if (r.bytes !== size) throw new Error(`read ${r.bytes} bytes, expected ${size}`);
      return size / MiB / (r.ms / 1000);
    };
    const cpu = { gateway: 0, proxy: 0, reads: 0 };
    /** A read, and the CPU `pid` used meanwhile added to `cpu[side]` (counted rounds only). */
    const timed = async (
      side: 'gateway' | 'proxy',
      pid: number | undefined,
      counted: boolean,
      go: () => Promise<Read>,
    ) => {
      const before = await processCpuMs(pid);
      const r = await go();
      const after = await processCpuMs(pid);
      if (counted && before !== undefined && after !== undefined) cpu[side] += after - before;
      return r;
    };
    let counted = false;
    const viaGateway = (cid: string) =>
      timed('gateway', options.pids?.gateway, counted, () =>
        read(`${options.gatewayBase}/ipfs/${cid}`, { method: 'GET' }),
      );
    const viaNode = (cid: string) => read(`${options.nodeApi}/api/v0/cat?arg=${cid}`, { method: 'POST' });
    const viaProxy = (cid: string) =>
      timed('proxy', options.pids?.proxy, counted, () => read(`${options.proxyBase}/ipfs/${cid}`, { method: 'GET' }));
    const samples = {
      cg: [] as number[],
      cn: [] as number[],
      cp: [] as number[],
      wg: [] as number[],
      wn: [] as number[],
      wp: [] as number[],
    };
    const ttfb = { g: [] as number[], n: [] as number[] };
    for (let round = -options.warmup; round < options.runs; round++) {
      const seed = `gw-${sizeMiB}-${round}-${Date.now()}`;
      counted = round >= 0;
      if (counted) cpu.reads += 2;
      const forGateway = await add(options.apiBase, options.authorization, size, `${seed}-g`);
      const forNode = await add(options.apiBase, options.authorization, size, `${seed}-n`);
      const forProxy = await add(options.apiBase, options.authorization, size, `${seed}-p`);
      // each side goes first in turn (the first read after the adds meets the node still busy with them)
      const order = [0, 1, 2].map((i) => (i + round + options.warmup) % 3);
      const coldReads = [() => viaGateway(forGateway), () => viaNode(forNode), () => viaProxy(forProxy)];
      const warmReads = [() => viaGateway(forGateway), () => viaNode(forGateway), () => viaProxy(forGateway)];
      const cold: Read[] = [];
      const warm: Read[] = [];
      for (const i of order) cold[i] = await coldReads[i]!();
      for (const i of order) warm[i] = await warmReads[i]!();
      if (round < 0) continue;
      samples.cg.push(rate(cold[0]!));
      samples.cn.push(rate(cold[1]!));
      samples.cp.push(rate(cold[2]!));
      samples.wg.push(rate(warm[0]!));
      samples.wn.push(rate(warm[1]!));
      samples.wp.push(rate(warm[2]!));
      ttfb.g.push(warm[0]!.ttfbMs);
      ttfb.n.push(warm[1]!.ttfbMs);
    }
    figures.push({
      sizeMiB,
      cold: { gateway: median(samples.cg), node: median(samples.cn), proxy: median(samples.cp) },
      warm: { gateway: median(samples.wg), node: median(samples.wn), proxy: median(samples.wp) },
      ttfbMs: { gateway: median(ttfb.g), node: median(ttfb.n) },
      cpuMs: {
        gateway: options.pids?.gateway === undefined ? undefined : cpu.gateway / cpu.reads,
        proxy: options.pids?.proxy === undefined ? undefined : cpu.proxy / cpu.reads,
      },
    });
  }
  console.log(
    `\nDedicated gateway reads (GET ${new URL(options.gatewayBase).pathname}/ipfs/<cid>) against the node's own cat and a bare stream proxy in front of it, median of ${options.runs} interleaved rounds after ${options.warmup} warm-up (MiB/s; goal gateway/cat >= 0.8; gw/px: the gateway against the bare proxy hop)`,
  );
  const cols: Array<[string, number]> = [
    ['size', 9],
    ['cold gw', 9],
    ['cat', 8],
    ['proxy', 8],
    ['gw/cat', 8],
    ['gw/px', 7],
    ['warm gw', 9],
    ['cat', 8],
    ['proxy', 8],
    ['gw/cat', 8],
    ['gw/px', 7],
    ['TTFB gw ms', 12],
    ['cat ms', 8],
    ['CPU gw ms', 11],
    ['px ms', 8],
  ];
  console.log(cols.map(([h, w], i) => (i === 0 ? h.padEnd(w) : h.padStart(w))).join(''));
  for (const f of figures) {
    const cells = [
      `${f.sizeMiB} MiB`,
      f.cold.gateway.toFixed(1),
      f.cold.node.toFixed(1),
      f.cold.proxy.toFixed(1),
      (f.cold.gateway / f.cold.node).toFixed(2),
      (f.cold.gateway / f.cold.proxy).toFixed(2),
      f.warm.gateway.toFixed(1),
      f.warm.node.toFixed(1),
      f.warm.proxy.toFixed(1),
      (f.warm.gateway / f.warm.node).toFixed(2),
      (f.warm.gateway / f.warm.proxy).toFixed(2),
      f.ttfbMs.gateway.toFixed(2),
      f.ttfbMs.node.toFixed(2),
      f.cpuMs.gateway?.toFixed(2) ?? '-',
      f.cpuMs.proxy?.toFixed(2) ?? '-',
    ];
    console.log(cells.map((c, i) => (i === 0 ? c.padEnd(cols[i]![1]) : c.padStart(cols[i]![1]))).join(''));
  }
  const [gwRss, pxRss] = await Promise.all([rssMb(options.pids?.gateway), rssMb(options.pids?.proxy)]);
  if (gwRss !== undefined || pxRss !== undefined) {
    console.log(
      `CPU: per read (cold and warm), every thread of the process. RSS at the end: gateway ${gwRss?.toFixed(0) ?? '-'} MB, bare proxy ${pxRss?.toFixed(0) ?? '-'} MB`,
    );
  }
  return figures;
}
