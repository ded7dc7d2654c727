// node --import tsx bench/support/cacheSoak.ts [--minutes N] [--max-bytes N]
// The response cache's bound under random-key traffic: for N minutes (default 10) it sets entries
// with random keys, random value sizes (20 B to 64 KiB), random TTLs and random block tags, reads
// random keys back and drops random tags (reorgs), as fast as one process can, and samples the
// store's byte count after every operation. Reports the maximum bytes seen against `maxBytes`
// and exits 1 if the bound was ever exceeded. (The memory store only: the Redis store is bounded
// by its per-entry TTLs and the server's maxmemory, see packages/gateway/README.md "Response cache".)
import { randomBytes } from 'node:crypto';
import { createMemoryCache } from '../../packages/gateway/src/cache/createMemoryCache.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const minutes = Number(arg('minutes', '10'));
const maxBytes = Number(arg('max-bytes', String(8 * 1024 * 1024)));
if (!(minutes > 0) || !(maxBytes > 0)) {
  process.stderr.write('usage: cacheSoak.ts [--minutes N>0] [--max-bytes N>0]\n');
  process.exit(2);
}

const cache = createMemoryCache({ maxBytes });

const filler = 'x'.repeat(65_536);
const randomKey = () => `mainnet|0|eth_getBlockByHash|["0x${randomBytes(32).toString('hex')}",false]`;
const recent: string[] = [];
const tags = Array.from({ length: 256 }, (_, i) => `blk:0x${i.toString(16).padStart(64, '0')}`);
const started = Date.now();
const until = started + minutes * 60_000;
let ops = 0;
let sets = 0;
let drops = 0;
let maxSeen = 0;
let lastReport = started;
while (Date.now() < until) {
  for (let i = 0; i < 200; i++) {
    const r = Math.random();
    if (r < 0.6) {
      const key = randomKey();
      const size = Math.random() < 0.9 ? 20 + Math.floor(Math.random() * 2_000) : Math.floor(Math.random() * 65_536);
      const tag = Math.random() < 0.5 ? tags[Math.floor(Math.random() * tags.length)] : undefined;
      await cache.set(key, `"${filler.slice(0, size)}"`, { ttlMs: 1_000 + Math.floor(Math.random() * 600_000), tag });
      recent.push(key);
      if (recent.length > 10_000) recent.splice(0, 5_000);
      sets++;
    } else if (r < 0.995) {
      await cache.get(recent[Math.floor(Math.random() * recent.length)] ?? randomKey());
    } else {
      await cache.dropTag(tags[Math.floor(Math.random() * tags.length)]!);
      drops++;
    }
    ops++;
    const { bytes } = cache.stats();
    if (bytes > maxSeen) maxSeen = bytes;
  }
  if (Date.now() - lastReport >= 30_000) {
    lastReport = Date.now();
    const s = cache.stats();
    console.log(
      `${((lastReport - started) / 60_000).toFixed(1)} min: ${ops} ops, ${s.entries} entries, ${s.bytes} bytes (max ${maxSeen}), ${s.evictions} evictions`,
    );
  }
}
const s = cache.stats();
console.log(
  `cache soak (memory), ${minutes} min: ${ops} ops (${sets} sets, ${drops} tag drops), ${s.entries} entries at the end, ` +
    `max bytes ${maxSeen} of ${maxBytes} (${((maxSeen / maxBytes) * 100).toFixed(1)}%), ${s.evictions} evictions, hits ${s.hits}, misses ${s.misses}`,
);
await cache.close();
if (maxSeen > maxBytes) {
  console.log('BOUND EXCEEDED');
  process.exit(1);
}
console.log('bound held');
