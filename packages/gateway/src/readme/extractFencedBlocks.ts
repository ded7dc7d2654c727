/** A fenced code block of a Markdown document. */
export interface FencedBlock {
  /** The info string's first word (`sh`, `js`, …), or '' for a bare fence. */
  readonly lang: string;
  /** The lines between the fences. */
  readonly body: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The block's first line that is not empty: how tests and messages name it. */
  readonly firstLine: string;
}

/**
 * The fenced code blocks (```) of a Markdown document, in order. Fences are read at the start of
 * a line (up to three spaces of indentation, as CommonMark allows); an unclosed fence runs to the
 * end of the document.
 *
 * @example
 * extractFencedBlocks('text\n```sh\necho hi\n```\n'); // [{ lang: 'sh', body: 'echo hi', line: 2, firstLine: 'echo hi' }]
 */
export function extractFencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      if (new RegExp(`^ {0,3}${fence}\\s*$`).test(lines[j]!)) break;
      body.push(lines[j]!);
    }
    const text = body.join('\n');
    blocks.push({
      lang: open[2]!.toLowerCase(),
      body: text,
      line: i + 1,
      firstLine: body.find((l) => l.trim() !== '')?.trim() ?? '',
    });
    i = j;
  }
  return blocks;
}
