/** A configuration problem, naming the field at fault (e.g. `networks[0].upstreams[1].http`). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}
