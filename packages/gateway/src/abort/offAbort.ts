import { type AbortCallback, waiting } from './abortWaiting.js';

/**
 * Cancels a wait `onAbort(signal, callback)` registered, by the callback itself: for a hot path
 * that keeps no cancel function per wait.
 *
 * @example
 * onAbort(clientSignal, request); // request.handleEvent() runs on abort
 * offAbort(clientSignal, request); // once the request ended
 */
export function offAbort(signal: AbortSignal, callback: AbortCallback): void {
  waiting.get(signal)?.delete(callback);
}
