// npm run bench -- cache-soak [--minutes N] [--max-bytes N] [--store memory|redis|both] [--rate OPS]
// The response cache's bound under random-key traffic, for both stores: for N minutes (default
// 10) it sets entries with random keys, random value sizes (20 B to 64 KiB), random TTLs and
// random block tags (and now and then a class kept forever), reads recent keys back and drops
// random tags (reorgs), at most `--rate` operations a second per store (default 4,000: the
// bound, not the speed, is measured; the machine is shared). `both` (the default) runs the two
// stores side by side, each in a process of its own.
//
// What is measured, per store:
// - counted bytes (what the store counts against `maxBytes`: entries and the tag index, and in
//   Redis the LRU set and the size hash too), after every operation (memory) or every 50 (Redis,
//   where the bound is enforced inside one Lua script, so no reader can see it exceeded): the
//   peak must stay within `maxBytes`;
// - real bytes, every 30 s and at the end: memory, the heap after a full GC minus the heap before
//   the cache was filled; Redis, `MEMORY USAGE` (SAMPLES 0) summed over every key of the store's
//   prefix. Real over counted says whether the accounting covers what the store really holds.
// The last line of each store is one JSON object; the parent prints them as a table.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createMemoryCache } from '../../packages/gateway/src/cache/createMemoryCache.js';
import { createRedisCache } from '../../packages/gateway/src/cache/createRedisCache.js';
import type { ResponseCache } from '../../packages/gateway/src/cache/ResponseCache.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const minutes = Number(arg('minutes', '10'));
const maxBytes = Number(arg('max-bytes', String(8 * 1024 * 1024)));
const store = arg('store', 'both');
const rate = Number(arg('rate', '4000'));
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!(minutes > 0) || !(maxBytes > 0) || !(rate > 0) || !['memory', 'redis', 'both'].includes(store)) {
  process.stderr.write(
    'usage: cache-soak [--minutes N>0] [--max-bytes N>0] [--store memory|redis|both] [--rate OPS>0]\n',
  );
  process.exit(2);
}

/** What one store's run reports. */
interface SoakResult {
  store: string;
  minutes: number;
  maxBytes: number;
  ops: number;
  sets: number;
  gets: number;
  drops: number;
  hits: number;
  evictions: number;
  peakCounted: number;
  peakReal: number;
  /** real / counted at the sample where real was highest */
  realOverCounted: number;
  entriesAtEnd: number;
  entriesPeak: number;
  heldBound: boolean;
}

if (store === 'both') {
  const results = await Promise.all(
    (['memory', 'redis'] as const).map(
      (s) =>
        new Promise<SoakResult>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              '--expose-gc',
              '--import',
              'tsx',
              new URL(import.meta.url).pathname,
              '--store',
              s,
              '--minutes',
              String(minutes),
              '--max-bytes',
              String(maxBytes),
              '--rate',
              String(rate),
            ],
            { stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let last = '';
          let buf = '';
          child.stdout!.on('data', (c: Buffer) => {
            buf += c.toString();
            let nl = buf.indexOf('\n');
            while (nl >= 0) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              if (line.startsWith('{')) last = line;
              else console.log(`[${s}] ${line}`);
              nl = buf.indexOf('\n');
            }
          });
          child.once('exit', (code) =>
            last ? resolve(JSON.parse(last) as SoakResult) : reject(new Error(`${s} soak exited with ${code}`)),
          );
        }),
    ),
  );
  const mib = (n: number) => `${(n / 1048576).toFixed(2)} MiB`;
  console.log(`\ncache soak, ${minutes} min, at most ${rate} ops/s per store, configured size ${mib(maxBytes)}`);
  console.log(
    'store    ops        peak counted        peak real (real/counted)   entries end/peak   hit rate  evictions  bound',
  );
  for (const r of results) {
    console.log(
      `${r.store.padEnd(8)} ${String(r.ops).padEnd(10)} ${mib(r.peakCounted).padEnd(10)} (${((r.peakCounted / r.maxBytes) * 100).toFixed(1)}%)  ` +
        `${mib(r.peakReal).padEnd(10)} (${r.realOverCounted.toFixed(2)})       ${r.entriesAtEnd}/${r.entriesPeak}`.padEnd(
          18,
        ) +
        `    ${((r.hits / Math.max(1, r.gets)) * 100).toFixed(1)}%     ${r.evictions}  ${r.heldBound ? 'held' : 'EXCEEDED'}`,
    );
  }
  process.exit(results.every((r) => r.heldBound) ? 0 : 1);
}

const gc = (globalThis as { gc?: () => void }).gc;
let redis: Redis | undefined;
const prefix = `nodegate-soak-${randomUUID()}:`;
const heapNow = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const heapBase = heapNow();
let cache: ResponseCache;
if (store === 'redis') {
  redis = new Redis(REDIS);
  cache = createRedisCache({ redis, prefix, maxBytes });
} else {
  cache = createMemoryCache({ maxBytes });
}

/** What the store really holds now, bytes. */
async function realBytes(): Promise<number> {
  if (!redis) return Math.max(0, heapNow() - heapBase);
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const k of keys) total += Number((await redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0')) ?? 0);
  } while (cursor !== '0');
  return total;
}

/** A value of `size` bytes as the gateway holds one: a flat string of its own (not a slice of another). */
const valueOfSize = (size: number) =>
  Buffer.alloc(size + 2, 0x78)
    .fill(0x22, 0, 1)
    .fill(0x22, size + 1)
    .toString('latin1');
// keys are made again from a number when read back, so this process holds no key the cache dropped
const keyOf = (n: number) => `mainnet|eth_getBlockByHash|["0x${n.toString(16).padStart(16, '0').repeat(4)}",false]`;
const randomId = () => randomBytes(6).readUIntBE(0, 6);
const recent: number[] = [];
const tags = Array.from({ length: 256 }, (_, i) => `blk:0x${i.toString(16).padStart(64, '0')}`);
const started = Date.now();
const until = started + minutes * 60_000;
const r: SoakResult = {
  store,
  minutes,
  maxBytes,
  ops: 0,
  sets: 0,
  gets: 0,
  drops: 0,
  hits: 0,
  evictions: 0,
  peakCounted: 0,
  peakReal: 0,
  realOverCounted: 0,
  entriesAtEnd: 0,
  entriesPeak: 0,
  heldBound: true,
};
const sample = async () => {
  const counted = await cache.size();
  const real = await realBytes();
  // counted just before (meanwhile the store changes only by expiries: nothing else runs)
  if (real > r.peakReal) {
    r.peakReal = real;
    r.realOverCounted = real / Math.max(1, counted.bytes);
  }
  return { counted, real };
};
let lastReport = started;
const batch = 100;
while (Date.now() < until) {
  const batchStart = Date.now();
  for (let i = 0; i < batch; i++) {
    const x = Math.random();
    if (x < 0.6) {
      const id = randomId();
      const key = keyOf(id);
      const size = Math.random() < 0.9 ? 20 + Math.floor(Math.random() * 2_000) : Math.floor(Math.random() * 65_536);
      const tag = Math.random() < 0.5 ? tags[Math.floor(Math.random() * tags.length)] : undefined;
      const forever = Math.random() < 0.02;
      await cache.set(key, valueOfSize(size), {
        ttlMs: forever ? Number.POSITIVE_INFINITY : 1_000 + Math.floor(Math.random() * 600_000),
        tag,
        ...(tag ? { block: { number: 1, hash: tag.slice(4) } } : {}),
      });
      recent.push(id);
      if (recent.length > 10_000) recent.splice(0, 5_000);
      r.sets++;
    } else if (x < 0.995) {
      r.gets++;
      if (await cache.get(keyOf(recent[Math.floor(Math.random() * recent.length)] ?? randomId()))) r.hits++;
    } else {
      await cache.dropTag(tags[Math.floor(Math.random() * tags.length)]!);
      r.drops++;
    }
    r.ops++;
    if (!redis || r.ops % 50 === 0) {
      const { bytes, entries } = await cache.size();
      if (bytes > r.peakCounted) r.peakCounted = bytes;
      if (entries > r.entriesPeak) r.entriesPeak = entries;
      if (bytes > maxBytes) r.heldBound = false;
    }
  }
  const wait = (batch * 1000) / rate - (Date.now() - batchStart);
  if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  if (Date.now() - lastReport >= 30_000) {
    lastReport = Date.now();
    const { counted, real } = await sample();
    console.log(
      `${((lastReport - started) / 60_000).toFixed(1)} min: ${r.ops} ops, ${counted.entries} entries, ` +
        `counted ${counted.bytes} bytes (peak ${r.peakCounted} of ${maxBytes}), real ${real} bytes, ` +
        `hit rate ${((r.hits / Math.max(1, r.gets)) * 100).toFixed(1)}%, evictions ${cache.stats().evictions}`,
    );
  }
}
const end = await sample();
r.entriesAtEnd = end.counted.entries;
r.evictions = cache.stats().evictions;
if (redis) {
  const keys = await redis.keys(`${prefix}*`);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  redis.disconnect();
}
await cache.close();
console.log(JSON.stringify(r));
process.exit(r.heldBound ? 0 : 1);
