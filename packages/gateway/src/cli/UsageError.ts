/**
 * A command line that cannot be run as given: the CLI prints the message (which says what was
 * wrong and where the help is) on stderr and exits with 2.
 *
 * @example
 * throw new UsageError('nodegate keys create: unknown option --listen (nodegate keys create --help lists its options)');
 */
export class UsageError extends Error {}
