/**
 * The client went away (closed its connection) before its answer was ready: the work on its
 * behalf is abandoned, nothing is written, and no upstream is blamed.
 */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
  constructor() {
    super('the client went away');
  }
}
