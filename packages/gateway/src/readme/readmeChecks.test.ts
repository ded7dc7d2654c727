import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkCommandOutput } from './checkCommandOutput.js';
import { extractFencedBlocks } from './extractFencedBlocks.js';
import { matchStartupSample } from './matchStartupSample.js';
import { parseShellBlock } from './parseShellBlock.js';
import { runShellCommands } from './runShellCommands.js';

// The README test is only as good as its checks: each is shown here to refuse what it must.

const doc = [
  '# title',
  '```sh',
  'X=41   # a variable',
  'f() { echo "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":$1}"; }',
  '# a comment',
  'f $((X + 1))   # → {"jsonrpc":"2.0","id":1,"result":42}',
  'echo one \\',
  '  two',
  '# → one…two',
  '```',
  '',
  '```',
  'nodegate: listening on http://127.0.0.1:8550',
  '```',
].join('\n');

describe('the README checks', () => {
  it('read fenced blocks, commands, continuation lines and expectations with their README lines', () => {
    const blocks = extractFencedBlocks(doc);
    expect(blocks.map((b) => [b.lang, b.line, b.firstLine])).toEqual([
      ['sh', 2, 'X=41   # a variable'],
      ['', 12, 'nodegate: listening on http://127.0.0.1:8550'],
    ]);
    const commands = parseShellBlock(blocks[0]!);
    expect(commands).toEqual([
      { text: 'X=41   # a variable', line: 3, expect: [] },
      { text: expect.stringContaining('f() {'), line: 4, expect: [] },
      {
        text: 'f $((X + 1))   # → {"jsonrpc":"2.0","id":1,"result":42}',
        line: 6,
        expect: ['{"jsonrpc":"2.0","id":1,"result":42}'],
      },
      { text: 'echo one \\\n  two', line: 7, expect: ['one…two'] },
    ]);
    expect(() => parseShellBlock({ lang: 'sh', line: 1, firstLine: '# x', body: '# x\n# → 1' })).toThrow(
      /README line 3: "# →" must follow the command/,
    );
  });

  it('run commands in one shell, in order, and give each its own output and status', async () => {
    const commands = parseShellBlock(extractFencedBlocks(doc)[0]!);
    const runs = await runShellCommands(
      [...commands, { text: 'false', line: 9, expect: [] }, { text: 'echo to stderr >&2', line: 10, expect: [] }],
      { cwd: tmpdir() },
    );
    expect(runs.map((r) => r?.status)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(runs[2]!.output).toBe('{"jsonrpc":"2.0","id":1,"result":42}\n');
    expect(runs[3]!.output).toBe('one two\n');
    expect(runs[5]!.output).toBe('to stderr\n');
    for (const [i, c] of commands.entries())
      expect(checkCommandOutput(c, runs[i]!.output, runs[i]!.status)).toBeUndefined();
    // a shell that exits leaves the commands after it without a run
    const cut = await runShellCommands(
      [
        { text: 'exit 3', line: 1, expect: [] },
        { text: 'echo never', line: 2, expect: [] },
      ],
      { cwd: tmpdir() },
    );
    expect(cut).toEqual([undefined, undefined]);
  });

  it('refuse a failed command, an error, a null or zero result and output other than the README says', () => {
    const cmd = (expectations: string[] = []) => ({ text: 'x', line: 1, expect: expectations });
    expect(checkCommandOutput(cmd(), 'ok', 7)).toBe('exited with 7');
    expect(checkCommandOutput(cmd(), '{"jsonrpc":"2.0","id":1,"error":{"code":-32601}}', 0)).toMatch(/JSON-RPC error/);
    expect(checkCommandOutput(cmd(), '{"Message":"no link","Code":0,"Type":"error"}', 0)).toMatch(/Kubo/);
    expect(checkCommandOutput(cmd(), '{"jsonrpc":"2.0","id":1,"result":null}', 0)).toMatch(/"result":null/);
    expect(checkCommandOutput(cmd(), '{"jsonrpc":"2.0","id":1,"result":"0x0"}', 0)).toMatch(/"result":"0x0"/);
    expect(checkCommandOutput(cmd(['"result":"0x…2a"']), '{"result":"0x00"}', 0)).toMatch(/does not print/);
    expect(checkCommandOutput(cmd(['a…b', 'c']), 'c a b', 0)).toMatch(/"c" not found/);
    // unless the README says so
    expect(
      checkCommandOutput(
        cmd(['"error":{"code":-32002…"reason":"method"']),
        '{"error":{"code":-32002,"data":{"reason":"method"}}}',
        0,
      ),
    ).toBeUndefined();
    expect(checkCommandOutput(cmd(['"result":null']), '{"result":null}', 0)).toBeUndefined();
  });

  it('match the sample startup output line by line, in order, with … and any 32-digit hex value', () => {
    const printed = [
      'nodegate: starting on the embedded defaults',
      'nodegate: listening on http://127.0.0.1:8550',
      '  sign in    http://127.0.0.1:8550/dashboard/sign-in?token=abc  (one-time link, 15 minutes)',
      'development API key: 0a718df8c8ee4617ae6d874fe287cb97',
    ].join('\n');
    const sample = [
      'nodegate: listening on http://127.0.0.1:8550',
      '  sign in    http://127.0.0.1:8550/dashboard/sign-in?token=…  (one-time link, 15 minutes)',
      'development API key: 3111a397c829818d6c438b39442ca3d0',
    ].join('\n');
    expect(matchStartupSample(sample, printed)).toBeUndefined();
    expect(
      matchStartupSample(
        'development API key: 3111a397c829818d6c438b39442ca3d0\nnodegate: listening on http://127.0.0.1:8550',
        printed,
      ),
    ).toBe('nodegate: listening on http://127.0.0.1:8550');
    expect(matchStartupSample('development key secret: 3111a397c829818d6c438b39442ca3d0', printed)).toBe(
      'development key secret: 3111a397c829818d6c438b39442ca3d0',
    );
  });
});
