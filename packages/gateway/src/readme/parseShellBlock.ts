import type { FencedBlock } from './extractFencedBlocks.js';

/** One command of a shell block, with what the README says it prints. */
export interface ShellCommand {
  /** The command as written (continuation lines joined by their backslash-newline, as bash reads them). */
  readonly text: string;
  /** Its first line in the Markdown document (1-based). */
  readonly line: number;
  /**
   * What it prints, from `# → …` comments (at the end of its last line, or on the lines right
   * after it): each must be found in its output, in order; `…` stands for anything.
   */
  readonly expect: readonly string[];
}

const EXPECT = /(?:^|\s)#\s*→\s?(.*)$/;

/**
 * Splits a shell block of the README into its commands, one per logical line (a line ending in a
 * backslash continues on the next). Comment lines are skipped, except `# → …` ones, which say what
 * the command right above them prints (one anywhere else is an error, thrown). A block whose commands span lines otherwise (a here-document,
 * an `if … fi` over lines) is not supported: write README commands one per line.
 *
 * @example
 * parseShellBlock({ lang: 'sh', line: 10, body: 'X=1\necho $X   # → 1', firstLine: 'X=1' });
 * // [{ text: 'X=1', line: 11, expect: [] }, { text: 'echo $X   # → 1', line: 12, expect: ['1'] }]
 */
export function parseShellBlock(block: FencedBlock): ShellCommand[] {
  const lines = block.body.split('\n');
  const commands: Array<{ text: string; line: number; expect: string[]; end: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      const expected = EXPECT.exec(trimmed);
      const last = commands[commands.length - 1];
      // an expectation line belongs to the command right above it (no other line between them)
      if (!expected) continue;
      if (!last || !onlyExpectationsBetween(lines, last.end, i)) {
        throw new Error(`README line ${block.line + 1 + i}: "# →" must follow the command it describes`);
      }
      last.expect.push(expected[1]!.trim());
      continue;
    }
    const start = i;
    let text = raw;
    while (text.endsWith('\\') && i + 1 < lines.length) {
      i += 1;
      text += `\n${lines[i]!}`;
    }
    const trailing = EXPECT.exec(lines[i]!);
    commands.push({ text, line: block.line + 1 + start, expect: trailing ? [trailing[1]!.trim()] : [], end: i });
  }
  return commands.map(({ text, line, expect }) => ({ text, line, expect }));
}

/** Whether every line strictly between `from` and `to` is a `# → …` line. */
function onlyExpectationsBetween(lines: readonly string[], from: number, to: number): boolean {
  for (let k = from + 1; k < to; k++) {
    const t = lines[k]!.trim();
    if (!t.startsWith('#') || !EXPECT.test(t)) return false;
  }
  return true;
}
