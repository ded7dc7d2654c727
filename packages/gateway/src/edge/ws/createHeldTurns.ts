/** Runs a connection's messages, each after the pause its key is held to (if it is). */
export interface HeldTurns {
  /** Runs `job` at once when the key is not held and nothing waits; else in turn, after the key's pause. */
  run(job: () => Promise<void>): Promise<void>;
}

/**
 * The per-message pause of a key held over its limits, on one WebSocket connection: while the
 * key is held (`pauseMs()` gives its pause), messages take turns, and each waits out the pause
 * with the socket's reading paused (`pause`/`resume`), so what the client sends meanwhile waits
 * in its own buffers and a flood of refused calls costs the gateway nothing. A message that
 * arrives while others wait goes after them, even if the key is no longer held. `signal` ends
 * the pauses at once (the connection closed).
 *
 * @example
 * const turns = createHeldTurns({ pauseMs: () => path.heldPauseMs(conn), pause: () => ws.pause(), resume: () => ws.resume(), signal });
 * ws.on('message', (data) => void turns.run(() => answer(data.toString())));
 */
export function createHeldTurns(deps: {
  readonly pauseMs: () => number | undefined;
  readonly pause: () => void;
  readonly resume: () => void;
  readonly signal: AbortSignal;
}): HeldTurns {
  const { signal } = deps;
  let turn: Promise<void> = Promise.resolve();
  let waiting = 0;
  const holdOff = async () => {
    const ms = deps.pauseMs();
    if (ms === undefined || signal.aborted) return;
    deps.pause();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    if (!signal.aborted) deps.resume();
  };
  return {
    run(job) {
      if (waiting === 0 && deps.pauseMs() === undefined) return job();
      waiting += 1;
      turn = turn.then(holdOff);
      return turn.then(() => {
        waiting -= 1;
        if (!signal.aborted) return job();
      });
    },
  };
}
