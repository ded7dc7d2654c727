import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CliCommand } from './CliCommand.js';
import { COMMANDS, DELEGATED } from './commandTable.js';
import { formatHelp } from './formatHelp.js';
import { UsageError } from './UsageError.js';

/** The values of a command's options, by option name (`data-dir`). */
export type OptionValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** What a command line asks for. */
export type CommandLine =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  /** A command with a parser of its own (`ipfs-node`), and its arguments. */
  | { readonly kind: 'delegate'; readonly name: keyof typeof DELEGATED; readonly argv: readonly string[] }
  | {
      readonly kind: 'run';
      readonly command: CliCommand;
      readonly values: OptionValues;
      /** The command's arguments, as many as `command.args` names. */
      readonly args: readonly string[];
    };

const HELP = new Set(['-h', '--help']);
/** Options a person may try that are refused on purpose, and why. */
const REFUSED_ON_PURPOSE: Readonly<Record<string, string>> = {
  password:
    'a password is never taken from the command line (other users and the shell history would see it): type it when asked, pipe it on stdin, or use --password-file',
};

/** Help asked before `--` (after it everything is an argument). */
const asksHelp = (argv: readonly string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => HELP.has(a));
};

/**
 * Reads a `nodegate` command line: the command's words first (`keys set`), then its arguments
 * and options in any order. Each command takes only its own options (see `commandTable.ts`):
 * an unknown option, a missing value or argument, or an extra argument throws
 * {@link UsageError} naming it and where the help is. `--help` (`-h`) anywhere gives the help
 * of what was named so far; `nodegate help keys set` too.
 *
 * @example
 * parseCommandLine(['keys', 'create', '--plan', 'team']); // { kind: 'run', command: keys create, values: { plan: 'team' }, args: [] }
 * parseCommandLine(['keys', 'create', '--listen', 'x']); // throws UsageError('nodegate keys create: unknown option --listen …')
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(formatHelp());
  if (HELP.has(first)) return { kind: 'help', text: formatHelp() };
  if (first === '--version' || first === '-V') return { kind: 'version' };
  if (first === 'help') return helpFor(rest);
  if (first in DELEGATED) return { kind: 'delegate', name: first as keyof typeof DELEGATED, argv: rest };
  if (first.startsWith('-')) {
    throw new UsageError(`nodegate: give the command first (nodegate COMMAND ${first} …); nodegate --help lists them`);
  }

  const group = COMMANDS.filter((c) => c.words[0] === first);
  if (group.length === 0) throw new UsageError(`nodegate: unknown command "${first}"\n\n${formatHelp()}`);
  let command: CliCommand;
  let args: readonly string[];
  if (group.length === 1 && group[0]!.words.length === 1) {
    command = group[0]!;
    args = rest;
  } else {
    const [second, ...after] = rest;
    if (second === undefined || second.startsWith('-')) {
      if (asksHelp(rest)) return { kind: 'help', text: formatHelp([first]) };
      throw new UsageError(`nodegate ${first}: which one?\n\n${formatHelp([first])}`);
    }
    const found = group.find((c) => c.words[1] === second);
    if (!found) throw new UsageError(`nodegate: unknown command "${first} ${second}"\n\n${formatHelp([first])}`);
    command = found;
    args = after;
  }
  if (asksHelp(args)) return { kind: 'help', text: formatHelp(command) };
  return parseOptions(command, args);
}

function helpFor(words: readonly string[]): CommandLine {
  if (words.length === 0) return { kind: 'help', text: formatHelp() };
  const exact = COMMANDS.find((c) => c.words.join(' ') === words.join(' '));
  if (exact) return { kind: 'help', text: formatHelp(exact) };
  if (COMMANDS.some((c) => c.words[0] === words[0]) && words.length === 1) {
    const only = COMMANDS.filter((c) => c.words[0] === words[0]);
    return {
      kind: 'help',
      text: only.length === 1 && only[0]!.words.length === 1 ? formatHelp(only[0]) : formatHelp(words),
    };
  }
  throw new UsageError(`nodegate: no help for "${words.join(' ')}": unknown command\n\n${formatHelp()}`);
}

function parseOptions(command: CliCommand, argv: readonly string[]): CommandLine {
  const name = `nodegate ${command.words.join(' ')}`;
  const hint = `(${name} --help lists its options)`;
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const o of command.options) options[o.name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}) };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    const e = err as Error & { code?: string };
    const unknown = /Unknown option '(-{1,2}[^']*)'/.exec(e.message)?.[1];
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const why = REFUSED_ON_PURPOSE[unknown.replace(/^-+/, '').split('=')[0]!];
      throw new UsageError(`${name}: unknown option ${unknown}${why ? `: ${why}` : ''} ${hint}`);
    }
    const flag = /Option '(-{1,2}[\w-]+)/.exec(e.message)?.[1];
    if (flag && /argument missing/.test(e.message)) throw new UsageError(`${name}: ${flag} needs a value ${hint}`);
    if (flag && /does not take an argument/.test(e.message)) {
      throw new UsageError(`${name}: ${flag} takes no value ${hint}`);
    }
    throw new UsageError(`${name}: ${e.message} ${hint}`);
  }
  const args = parsed.positionals;
  if (args.length < command.args.length) {
    const missing = command.args.slice(args.length).join(' ');
    throw new UsageError(`${name}: ${missing} is missing (usage: ${name} ${command.args.join(' ')})`);
  }
  if (args.length > command.args.length) {
    throw new UsageError(`${name}: unexpected argument "${args[command.args.length]}" ${hint}`);
  }
  return { kind: 'run', command, values: parsed.values as OptionValues, args };
}
