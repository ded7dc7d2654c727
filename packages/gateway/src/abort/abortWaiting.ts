/** What runs when a signal aborts: a function, or an object's `handleEvent` (no closure per wait). */
export type AbortCallback = (() => void) | { handleEvent(): void };

/**
 * The callbacks waiting on one signal, behind the single listener `onAbort` registers on it
 * (shared by `onAbort` and `offAbort`).
 */
export const waiting = new WeakMap<AbortSignal, Set<AbortCallback>>();
