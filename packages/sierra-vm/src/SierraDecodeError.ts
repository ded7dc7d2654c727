/** Thrown when felts are not a valid encoding (bad header, bad compression, bad program serialization). */
export class SierraDecodeError extends Error {
  /**
   * @param message what is wrong
   * @param offset index of the offending felt in the sequence being read, when known
   */
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(offset === undefined ? message : `${message} (at felt ${offset})`);
    this.name = 'SierraDecodeError';
  }
}
