/** An option a command takes. */
export interface CliOption {
  /** Without the dashes: `data-dir`. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** May be given more than once (each value kept). */
  readonly multiple?: boolean;
  /** What the value is, in the help: `DIR`. */
  readonly value?: string;
  /** One line for the help. */
  readonly help: string;
}

/** A command of the `nodegate` CLI, as its help shows it and its parser reads it. */
export interface CliCommand {
  /** The words that name it: `['keys', 'set']`. */
  readonly words: readonly string[];
  /** The arguments it requires, in order: `['KEY']`. */
  readonly args: readonly string[];
  /** One line for `nodegate --help`. */
  readonly summary: string;
  /** More for its own `--help` (optional). */
  readonly details?: string;
  /** Every option it takes (besides `--help`); anything else is refused. */
  readonly options: readonly CliOption[];
}
