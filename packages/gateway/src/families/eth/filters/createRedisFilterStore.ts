import type { Redis } from 'ioredis';
import type { FilterKind } from '../../types.js';
import type { FilterEntry, FilterStore } from './FilterStore.js';

// KEYS: the filter's hash, its owner's set, the idle set. ARGV: id, max per owner, now, timeout,
// ttl, owner, network, upstream, upstream id, kind, contracts ('' for none), created at.
// The owner's set drops its filters idle past the timeout before it is counted.
const ADD = `
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - tonumber(ARGV[4])))
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'o', ARGV[6], 'n', ARGV[7], 'u', ARGV[8], 'i', ARGV[9], 'k', ARGV[10], 'c0', ARGV[12], 't', ARGV[3])
if ARGV[11] ~= '' then redis.call('HSET', KEYS[1], 'c', ARGV[11]) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1`;

// KEYS: hash, owner's set, idle set. ARGV: id, owner, now, timeout, ttl. 1 when touched.
const TOUCH = `
if redis.call('HGET', KEYS[1], 'o') ~= ARGV[2] then return 0 end
local t = tonumber(redis.call('HGET', KEYS[1], 't'))
local now = tonumber(ARGV[3])
if now - t > tonumber(ARGV[4]) then return 0 end
if now > t then
  redis.call('HSET', KEYS[1], 't', ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1`;

// KEYS: hash, owner's set, idle set. ARGV: id, owner, now, timeout. 1 when removed.
const REMOVE = `
if redis.call('HGET', KEYS[1], 'o') ~= ARGV[2] then return 0 end
local t = tonumber(redis.call('HGET', KEYS[1], 't'))
if tonumber(ARGV[3]) - t > tonumber(ARGV[4]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`;

// KEYS: the idle set. ARGV: hash prefix, owner set prefix, cutoff (idle before it), limit.
// Returns id, fields, id, fields… of the filters taken out (an id whose hash expired is dropped).
const SWEEP = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3], 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  local h = ARGV[1] .. id
  local fields = redis.call('HGETALL', h)
  if #fields > 0 then
    redis.call('DEL', h)
    for i = 1, #fields, 2 do
      if fields[i] == 'o' then redis.call('ZREM', ARGV[2] .. fields[i + 1], id) end
    end
    out[#out + 1] = id
    out[#out + 1] = fields
  end
end
return out`;

const KINDS: ReadonlySet<string> = new Set<FilterKind>(['logs', 'blocks', 'transactions']);

/** A filter's hash fields (flat or as an object) as an entry; undefined when they are not one. */
function entryOf(id: string, f: Record<string, string>): FilterEntry | undefined {
  const createdAt = Number(f.c0);
  const polledAt = Number(f.t);
  if (f.o === undefined || f.n === undefined || f.u === undefined || f.i === undefined) return undefined;
  if (f.k === undefined || !KINDS.has(f.k) || !Number.isFinite(createdAt) || !Number.isFinite(polledAt))
    return undefined;
  let contracts: string[] | undefined;
  if (f.c !== undefined) {
    try {
      const parsed: unknown = JSON.parse(f.c);
      contracts = Array.isArray(parsed) ? parsed.filter((a): a is string => typeof a === 'string') : [];
    } catch {
      // an unreadable list names every contract: a restricted key is refused, never let through
      contracts = [];
    }
  }
  return {
    id,
    owner: f.o,
    network: f.n,
    upstream: f.u,
    upstreamId: f.i,
    kind: f.k as FilterKind,
    ...(contracts === undefined ? {} : { contracts }),
    createdAt,
    polledAt,
  };
}

/**
 * A {@link FilterStore} in Redis, shared by every gateway instance: each filter is one hash
 * (`<prefix>f:<id>`), each owner's live filters a sorted set by last read (`<prefix>o:<key>`,
 * which bounds them), and one sorted set of every filter by last read (`<prefix>idle`) for the
 * sweep. Each change is one Lua script (the bound is checked and the filter kept in one step);
 * the hashes and owner sets PEXPIRE twice the timeout plus a minute after their last use, so a
 * filter no instance sweeps still leaves Redis. Every call has its own deadline
 * (`timeoutMs`, besides the client's `commandTimeout`); a failure rejects (see
 * `createSharedFilterStore` for what happens then).
 *
 * @example
 * const store = createRedisFilterStore(redis, { prefix: 'nodegate:filters:', timeoutMs: 300_000, commandTimeoutMs: 1_000 });
 */
export function createRedisFilterStore(
  redis: Redis,
  options: { prefix: string; timeoutMs: number; commandTimeoutMs: number },
): FilterStore {
  const { prefix, timeoutMs, commandTimeoutMs } = options;
  const ttl = String(2 * timeoutMs + 60_000);
  const hashKey = (id: string) => `${prefix}f:${id}`;
  const ownerKey = (owner: string) => `${prefix}o:${owner}`;
  const idleKey = `${prefix}idle`;

  const bounded = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${commandTimeoutMs} ms`)),
        commandTimeoutMs,
      );
      timer.unref();
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };
  const run = (script: string, keys: string[], args: Array<string | number>) =>
    bounded(redis.eval(script, keys.length, ...keys, ...args.map(String)));

  return {
    async add(e, maxPerOwner) {
      const contracts = e.contracts === undefined ? '' : JSON.stringify(e.contracts);
      const args = [e.id, maxPerOwner, e.polledAt, timeoutMs, ttl, e.owner, e.network, e.upstream, e.upstreamId];
      const added = await run(
        ADD,
        [hashKey(e.id), ownerKey(e.owner), idleKey],
        [...args, e.kind, contracts, e.createdAt],
      );
      return Number(added) === 1;
    },
    async get(id, now) {
      const fields = await bounded(redis.hgetall(hashKey(id)));
      const e = entryOf(id, fields);
      return e !== undefined && now - e.polledAt <= timeoutMs ? e : undefined;
    },
    async touch(id, owner, now) {
      return Number(await run(TOUCH, [hashKey(id), ownerKey(owner), idleKey], [id, owner, now, timeoutMs, ttl])) === 1;
    },
    async remove(id, owner, now) {
      return Number(await run(REMOVE, [hashKey(id), ownerKey(owner), idleKey], [id, owner, now, timeoutMs])) === 1;
    },
    async count(owner, now) {
      return bounded(redis.zcount(ownerKey(owner), now - timeoutMs, '+inf'));
    },
    async sweep(now, limit) {
      const out = (await run(SWEEP, [idleKey], [hashKey(''), ownerKey(''), now - timeoutMs, limit])) as unknown[];
      const entries: FilterEntry[] = [];
      for (let i = 0; i + 1 < out.length; i += 2) {
        const flat = out[i + 1] as string[];
        const fields: Record<string, string> = {};
        for (let j = 0; j + 1 < flat.length; j += 2) fields[flat[j]!] = flat[j + 1]!;
        const e = entryOf(String(out[i]), fields);
        if (e !== undefined) entries.push(e);
      }
      return entries;
    },
  };
}
