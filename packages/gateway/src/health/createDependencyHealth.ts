import type { Logger } from '../log/createLogger.js';

/** What `/health` and `/metrics` read about one dependency (Redis, the database). */
export interface DependencySnapshot {
  readonly up: boolean;
  /** Epoch ms of the last change between up and down (the start, until the first change). */
  readonly since: number;
  /** Failures counted since the start (timeouts, lost connections). */
  readonly errors: number;
  /** Why it went down last (a short text without addresses or credentials), while it is down. */
  readonly reason: string | undefined;
}

/**
 * Whether a dependency the request path uses (Redis, PostgreSQL) answers now. It goes down on
 * the first failure its users report (a timeout, a lost connection), so the next calls take
 * their degraded path at once instead of each waiting for a timeout of its own, and comes back
 * up only when a probe succeeds. Each change is logged once (warn) and told to the listeners.
 */
export interface DependencyHealth {
  readonly name: string;
  up(): boolean;
  /** A call failed because the dependency is away (timeout, connection): counted; down until a probe succeeds. */
  failed(err: unknown): void;
  snapshot(): DependencySnapshot;
  /** Called with the new state after each change (listeners must not throw; errors are ignored). */
  onChange(listener: (up: boolean) => void): () => void;
  /** Probes now (one probe at a time); resolves with the state after it. */
  probeNow(): Promise<boolean>;
  /** Stops the probe timer. */
  close(): void;
}

/** Options of {@link createDependencyHealth}. */
export interface DependencyHealthOptions {
  /** The dependency's name in logs, `/health` and `/metrics` (`redis`, `database`). */
  readonly name: string;
  /** One cheap round trip (`PING`, `SELECT 1`) that rejects when the dependency is away; bounded by `timeoutMs`. */
  readonly probe: () => Promise<unknown>;
  /** A probe that takes longer fails. */
  readonly timeoutMs: number;
  /** How often the probe runs, up or down (default 1,000 ms). */
  readonly intervalMs?: number | undefined;
  readonly log?: Logger | undefined;
  /** What the degraded state means for clients, added to the log line when it goes down. */
  readonly whileDown?: string;
  readonly now?: () => number;
}

/** A failure's text for a log line or `/health`: its first line, bounded, without URLs. */
export function describeFailure(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').slice(0, 200);
}

/**
 * Tracks a dependency's availability: down on the first reported failure, up again when its
 * probe succeeds; the probe runs every `intervalMs` in both states (so a stall without traffic
 * shows in `/health` within about a second, and a recovery is seen as fast). Transitions are
 * logged once each (`<name> unavailable`, `<name> available again` with how long it was away).
 *
 * @example
 * const health = createDependencyHealth({ name: 'redis', probe: () => redis.ping(), timeoutMs: 1000, log });
 * try { await redis.get(k); } catch (err) { health.failed(err); }
 * if (!health.up()) useLocalLimits();
 */
export function createDependencyHealth(options: DependencyHealthOptions): DependencyHealth {
  const now = options.now ?? Date.now;
  const { name, log } = options;
  let up = true;
  let since = now();
  let errors = 0;
  let reason: string | undefined;
  let probing: Promise<boolean> | undefined;
  const listeners = new Set<(up: boolean) => void>();

  const change = (to: boolean, why?: string) => {
    if (to === up) return;
    const t = now();
    const lasted = t - since;
    up = to;
    since = t;
    reason = to ? undefined : why;
    if (to) log?.warn(`${name} available again`, { dependency: name, downMs: lasted });
    else
      log?.warn(`${name} unavailable`, {
        dependency: name,
        reason: why,
        ...(options.whileDown ? { degraded: options.whileDown } : {}),
      });
    for (const l of listeners) {
      try {
        l(to);
      } catch {
        // a listener's fault is its own
      }
    }
  };

  const failed = (err: unknown) => {
    errors += 1;
    change(false, describeFailure(err));
  };

  const probeNow = (): Promise<boolean> => {
    probing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          options.probe(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
          }),
        ]);
        change(true);
      } catch (err) {
        failed(err);
      } finally {
        clearTimeout(timer);
        probing = undefined;
      }
      return up;
    })();
    return probing;
  };

  const timer = setInterval(() => void probeNow(), options.intervalMs ?? 1_000);
  timer.unref();

  return {
    name,
    up: () => up,
    failed,
    snapshot: () => ({ up, since, errors, reason }),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    probeNow,
    close: () => clearInterval(timer),
  };
}
