// The fast loop (runLoop) gives what runFunction gives, statement for statement, on every oracle program, and
// handles deep recursion and the step limit.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_PRIME } from '../constants.js';
import { parseSierraText } from './parseSierraText.js';
import { runFunction } from './runFunction.js';
import { runLoop } from './runLoop.js';
import { SierraRunError } from './SierraRunError.js';
import type { EnumValue, Value } from './types.js';
import { newRunContext } from './newRunContext.js';

const DIR = join(import.meta.dirname, '..', '..', 'test-programs');
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.sierra.json'))
  .map((f) => f.slice(0, -'.sierra.json'.length))
  .sort();
const load = (name: string) =>
  parseSierraText(JSON.parse(readFileSync(join(DIR, `${name}.sierra.json`), 'utf8')).sierraText);
const gasOf = (name: string): bigint => {
  const f = join(DIR, `${name}.expected.json`);
  return existsSync(f) ? BigInt(JSON.parse(readFileSync(f, 'utf8')).availableGas) : 10_000_000n;
};

/** The parameters of `main` as runFunction binds them: builtins null, gas the given amount. */
function mainVars(name: string): { program: ReturnType<typeof load>['program']; id: number; vars: Value[] } {
  const { program, funcNames } = load(name);
  const id = [...funcNames].find(([, n]) => n.endsWith('::main'))![0];
  const vars: Value[] = [];
  for (const p of program.funcs[id]!.params) {
    const g = program.typeDeclarations[p.ty]!.genericId;
    vars[p.id] = g === 'GasBuiltin' ? gasOf(name) : null;
  }
  return { program, id, vars };
}

describe('runLoop', () => {
  it.each(names)('%s: same values and steps as runFunction', (name) => {
    const { program, id, vars } = mainVars(name);
    const { funcNames } = load(name);
    const expected = runFunction(program, id, [], { funcNames, availableGas: gasOf(name) });
    const r = runLoop(program, id, vars, newRunContext(), 100_000_000);
    expect(r.returned).toEqual(expected.returnValues);
    expect(r.steps).toBe(expected.steps);
  });

  it('runs loops (tail calls) in constant frames: bench_loop run(300000), 40 statements an iteration', () => {
    const { program, funcNames } = load('bench_loop');
    const id = [...funcNames].find(([, n]) => n.endsWith('::run'))![0];
    const n = 300_000;
    const r = runLoop(program, id, [null, 10n ** 15n, BigInt(n)], newRunContext(), 1e9);
    expect(r.steps).toBe(40 * n + 45);
    let [a, b, x] = [0n, 1n, 1n];
    for (let i = 0; i < n; i++) {
      [a, b] = [b, (a + b) % FIELD_PRIME];
      x = (x * 48271n + 11n) % 2147483647n;
    }
    const ok = r.returned[2] as EnumValue;
    expect(ok.tag).toBe(0);
    expect((ok.value as Value[])[0]).toEqual([b, x]);
  });

  it('stops at the step limit', () => {
    const { program, id, vars } = mainVars('recursion_loops');
    expect(() => runLoop(program, id, vars, newRunContext(), 50)).toThrow(SierraRunError);
    expect(() => runLoop(program, id, vars, newRunContext(), 50)).toThrow(/step limit 50/);
  });
});
