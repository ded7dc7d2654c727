/** The breaker's state: closed (traffic flows), open (none), half-open (one trial at a time). */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** When a breaker opens and how long it stays open. */
export interface BreakerSettings {
  /** Failures in a row that open it. */
  readonly failuresToOpen: number;
  /** Or: the failure share of the last `window` outcomes (with at least `window / 2` seen) above this. */
  readonly errorRateToOpen: number;
  readonly window: number;
  /** Time it stays open before a trial; doubles after each failed trial, up to `maxOpenMs`. */
  readonly openMs: number;
  readonly maxOpenMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = {
  failuresToOpen: 5,
  errorRateToOpen: 0.5,
  window: 20,
  openMs: 1_000,
  maxOpenMs: 30_000,
};

/** A circuit breaker of one upstream. */
export interface CircuitBreaker {
  state(): BreakerState;
  /** Whether a request may go now; in half-open, true once (the trial) until its outcome is known. */
  allow(now?: number): boolean;
  /** What `allow(now)` would say, without taking the half-open trial (nothing changes). */
  wouldAllow(now?: number): boolean;
  success(): void;
  failure(now?: number): void;
  /** Opens it at once (the upstream is known to be down: its health probe failed to connect). */
  trip(now?: number): void;
}

/**
 * A circuit breaker: closed until `failuresToOpen` failures in a row or an error rate above
 * `errorRateToOpen` over the last `window` outcomes, then open for `openMs`; then half-open,
 * where one trial request (user traffic or the background probe) decides: success closes it,
 * failure opens it again for twice as long (up to `maxOpenMs`). `onChange` hears every change
 * (a log line and a metric each).
 *
 * @example
 * const b = createCircuitBreaker(DEFAULT_BREAKER, (from, to) => log.warn('breaker', { from, to }));
 * if (b.allow()) { try { await call(); b.success(); } catch { b.failure(); } }
 */
export function createCircuitBreaker(
  settings: BreakerSettings = DEFAULT_BREAKER,
  onChange: (from: BreakerState, to: BreakerState) => void = () => {},
): CircuitBreaker {
  let state: BreakerState = 'closed';
  let consecutive = 0;
  const outcomes = new Uint8Array(settings.window); // 1 = failure
  let seen = 0;
  let failures = 0;
  let cursor = 0;
  let openUntil = 0;
  let openFor = settings.openMs;
  let trialOut = false;

  const move = (to: BreakerState) => {
    if (to === state) return;
    const from = state;
    state = to;
    onChange(from, to);
  };
  const record = (failed: boolean) => {
    const old = outcomes[cursor]!;
    if (seen >= settings.window) failures -= old;
    else seen += 1;
    outcomes[cursor] = failed ? 1 : 0;
    failures += failed ? 1 : 0;
    cursor = (cursor + 1) % settings.window;
  };
  const open = (now: number) => {
    openUntil = now + openFor;
    trialOut = false;
    move('open');
  };
  const reset = () => {
    outcomes.fill(0);
    seen = 0;
    failures = 0;
    cursor = 0;
    consecutive = 0;
  };

  return {
    state: () => state,
    allow(now = Date.now()) {
      if (state === 'closed') return true;
      if (state === 'open') {
        if (now < openUntil) return false;
        move('half-open');
      }
      if (trialOut) return false;
      trialOut = true;
      return true;
    },
    wouldAllow(now = Date.now()) {
      if (state === 'closed') return true;
      if (trialOut) return false;
      return state === 'half-open' || now >= openUntil;
    },
    success() {
      consecutive = 0;
      if (state === 'half-open') {
        openFor = settings.openMs;
        trialOut = false;
        reset();
        move('closed');
        return;
      }
      record(false);
    },
    failure(now = Date.now()) {
      if (state === 'half-open') {
        openFor = Math.min(openFor * 2, settings.maxOpenMs);
        open(now);
        return;
      }
      if (state === 'open') return;
      consecutive += 1;
      record(true);
      const rateTripped = seen >= settings.window / 2 && failures / seen > settings.errorRateToOpen;
      if (consecutive >= settings.failuresToOpen || rateTripped) {
        reset();
        open(now);
      }
    },
    trip(now = Date.now()) {
      if (state === 'open') return;
      reset();
      open(now);
    },
  };
}
