import { Mutex } from '../lib/mutex';
import { loadState, type SnapState } from './transitions';

const lock = new Mutex();

async function read(): Promise<SnapState> {
  const raw = await snap.request({ method: 'snap_manageState', params: { operation: 'get' } });
  return loadState(raw);
}

/**
 * Reads the current state. Reads are serialised with writes, so a reader never sees half of an update.
 *
 * @returns The state.
 */
export function getState(): Promise<SnapState> {
  return lock.run(read);
}

/**
 * Applies a pure transition to the stored state as one serialised read-modify-write, so concurrent requests
 * never lose each other's updates.
 *
 * @param transition - A pure function from the current state to the next one.
 * @returns The state that was written.
 * @example
 * ```ts
 * await updateState((s) => addTransaction(s, record));
 * ```
 */
export function updateState(transition: (state: SnapState) => SnapState): Promise<SnapState> {
  return lock.run(async () => {
    const current = await read();
    const next = transition(current);
    if (next !== current) {
      await snap.request({
        method: 'snap_manageState',
        params: { operation: 'update', newState: next as unknown as Record<string, never> },
      });
    }
    return next;
  });
}
