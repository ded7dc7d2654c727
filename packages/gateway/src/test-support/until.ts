/**
 * Polls `check` every `everyMs` until it gives something other than `undefined` or `false`, and
 * returns that; throws naming `what` after `tries` polls (by default 100 polls, 100 ms apart).
 *
 * @example
 * const samples = await until(async () => {
 *   const s = await scrape();
 *   return metricValue(s, 'nodegate_upstream_breaker_state', first) === 2 ? s : undefined;
 * }, 'the breaker to show open');
 */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  { tries = 100, everyMs = 100 }: { tries?: number; everyMs?: number } = {},
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
