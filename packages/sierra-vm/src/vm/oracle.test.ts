// Runs every test program compiled by scripts/generateOracleFixtures.mjs on the interpreter and compares its
// result or panic with what the real Cairo runner (wasm-cairo) printed for the same program.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPanicResult } from './isPanicResult.js';
import { parseSierraText } from './parseSierraText.js';
import { prepareProgram } from './prepareProgram.js';
import { runFunction } from './runFunction.js';
import type { EnumValue } from './types.js';
import { unsupportedLibfuncs } from './unsupportedLibfuncs.js';
import { valueToCells } from './valueToCells.js';

const DIR = join(import.meta.dirname, '..', '..', 'test-programs');
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.cairo'))
  .map((f) => f.slice(0, -'.cairo'.length))
  .filter((n) => existsSync(join(DIR, `${n}.sierra.json`)) && existsSync(join(DIR, `${n}.expected.json`)))
  .sort();

type Expected = { kind: 'success'; values: bigint[] } | { kind: 'panic'; items: PanicItem[] };
/** A panic data item as the runner prints it: a ByteArray's text, or a felt with its short string if it has one. */
type PanicItem = { text: string } | { felt: bigint; text?: string };

/**
 * Reads the runner's output: `Run completed successfully, returning [..]` or `Run panicked with [..].`, whose
 * items are `"text"` (a ByteArray), `0x… ('text')` (a short string) or `0x…`.
 */
function parseRunnerOutput(output: string): Expected {
  const m = /^Run (completed successfully, returning|panicked with) \[(.*)\]/m.exec(output);
  if (!m) throw new Error(`unexpected runner output: ${output}`);
  if (m[1]!.startsWith('completed'))
    return { kind: 'success', values: (m[2]!.match(/0x[0-9a-fA-F]+|\d+/g) ?? []).map(BigInt) };
  const items = [...m[2]!.matchAll(/"((?:[^"\\]|\\.)*)"|(0x[0-9a-fA-F]+)(?: \('((?:[^'\\]|\\.)*)'\))?/g)].map(
    (i): PanicItem =>
      i[1] !== undefined ? { text: i[1] } : { felt: BigInt(i[2]!), ...(i[3] !== undefined ? { text: i[3] } : {}) },
  );
  return { kind: 'panic', items };
}

describe('interpreter against the Cairo runner (wasm-cairo)', () => {
  it('has oracle fixtures', () => {
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  it.each(names)('%s', (name) => {
    const { sierraText } = JSON.parse(readFileSync(join(DIR, `${name}.sierra.json`), 'utf8'));
    const { availableGas, output } = JSON.parse(readFileSync(join(DIR, `${name}.expected.json`), 'utf8'));
    const { program, funcNames } = parseSierraText(sierraText);
    expect(unsupportedLibfuncs(program)).toEqual([]);
    const expected = parseRunnerOutput(output);
    const result = runFunction(program, 'main', [], { funcNames, availableGas });
    if (expected.kind === 'panic') {
      expect(result.panic).toBeDefined();
      const messages = result.panic!.messages;
      expect(messages).toHaveLength(expected.items.length);
      expected.items.forEach((item, i) => {
        // A ByteArray or a short string reads the same; a felt the runner shows without text is that felt.
        if (item.text !== undefined) expect(messages[i]).toBe(item.text);
        else if ('felt' in item) expect(messages[i]).toBe(`0x${item.felt.toString(16)}`);
      });
      if (expected.items.every((item) => 'felt' in item)) {
        expect(result.panic!.data).toEqual(expected.items.map((item) => ('felt' in item ? item.felt : 0n)));
      }
      return;
    }
    expect(result.panic).toBeUndefined();
    const { registry } = prepareProgram(program);
    const [ty] = result.valueTypes;
    const [value] = result.values;
    expect(result.values).toHaveLength(1);
    // As the runner: a PanicResult's Ok prints its inner tuple's cells, anything else its own cells.
    const cells = isPanicResult(registry, ty!)
      ? (() => {
          const info = registry.get(ty!).info;
          if (info.kind !== 'enum') throw new Error('not an enum');
          return valueToCells(registry, info.variants[0]!, (value as EnumValue).value);
        })()
      : valueToCells(registry, ty!, value!);
    expect(cells).toEqual(expected.values);
  });
});
