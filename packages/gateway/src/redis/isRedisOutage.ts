/**
 * Whether a Redis call's failure means Redis is away (a timeout, a lost or refused connection, a
 * server that cannot serve: `LOADING`, `BUSY`, `OOM`, `READONLY`, `MASTERDOWN`…) rather than a
 * fault of the command itself (`ERR …`, `WRONGTYPE`, `NOSCRIPT`), which a retry elsewhere would
 * not mend and which says Redis answered.
 *
 * @example
 * try { await redis.get(k); } catch (err) { if (isRedisOutage(err)) health.failed(err); else throw err; }
 */
export function isRedisOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return true;
  return !(err.name === 'ReplyError' && /^(?:ERR|WRONGTYPE|NOSCRIPT)\b/.test(err.message));
}
