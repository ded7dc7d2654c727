import type { CliCommand } from './CliCommand.js';
import { COMMANDS, DELEGATED } from './commandTable.js';

const WIDTH = 100;

/** `text` folded at 100 columns, each line after `indent`. */
function fold(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

const usageOf = (c: CliCommand) =>
  `nodegate ${[...c.words, ...c.args].join(' ')}${c.options.length ? ' [options]' : ''}`;

/**
 * The help of `nodegate` (no `command`), of a group (`['keys']`: its commands), or of one
 * command (its usage, what it does, and every option it takes with its value and meaning).
 *
 * @example
 * formatHelp(COMMANDS.find((c) => c.words.join(' ') === 'keys set'));
 * // 'usage: nodegate keys set KEY [options]\n\n  Only the settings given change…\n\noptions:\n  --name TEXT …'
 */
export function formatHelp(command?: CliCommand | readonly string[]): string {
  if (command && 'words' in command) {
    const rows = [
      ...command.options.map((o) => [`--${o.name}${o.value ? ` ${o.value}` : ''}`, o.help]),
      ['-h, --help', 'show this help'],
    ];
    const pad = Math.max(...rows.map(([flag]) => flag!.length)) + 2;
    return [
      `usage: ${usageOf(command)}`,
      '',
      fold(`${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`, '  '),
      ...(command.details ? [fold(command.details, '  ')] : []),
      '',
      'options:',
      ...rows.map(([flag, help]) => `  ${flag!.padEnd(pad)}${help}`),
    ].join('\n');
  }
  const group = command ?? [];
  const listed = COMMANDS.filter((c) => group.every((w, i) => c.words[i] === w));
  const names = listed.map((c) => [...c.words, ...c.args].join(' '));
  const extra = group.length === 0 ? Object.entries(DELEGATED) : [];
  const pad = Math.max(...names.map((n) => n.length), ...extra.map(([n]) => n.length)) + 2;
  return [
    ...(group.length === 0 ? ['nodegate: one endpoint and one API key for Ethereum, Starknet and IPFS', ''] : []),
    `usage: nodegate ${group.length ? `${group.join(' ')} ` : ''}COMMAND [options]`,
    '',
    'commands:',
    ...listed.map((c, i) => `  ${names[i]!.padEnd(pad)}${c.summary}`),
    ...extra.map(([n, summary]) => `  ${n.padEnd(pad)}${summary}`),
    '',
    `nodegate ${group.length ? `${group.join(' ')} ` : ''}COMMAND --help lists a command's options.`,
    ...(group.length === 0
      ? [
          'In a clone, run it as `npx nodegate …` (`npm start` builds it first); `nodegate --version` prints its version.',
        ]
      : []),
  ].join('\n');
}
