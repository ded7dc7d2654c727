/** Thrown when a Sierra program cannot be prepared or run (unsupported libfunc, bad input, step limit). */
export class SierraRunError extends Error {
  override name = 'SierraRunError';
}
