import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSierraProgram } from '../decodeSierraProgram.js';
import { checkProgramStructure } from './checkProgramStructure.js';
import { prepareProgram } from './prepareProgram.js';
import { SierraRunError } from './SierraRunError.js';

const FIXTURES =
  process.env.CAIRO_TEST_DATA ?? join(import.meta.dirname, '../../../../../shared/fixtures/cairo-test-data');
const load = () =>
  decodeSierraProgram(
    JSON.parse(readFileSync(join(FIXTURES, 'erc20__erc_20.contract_class.json'), 'utf8')).sierra_program,
  ).program;

describe('checkProgramStructure', () => {
  it('finds nothing wrong in a compiled class', () => {
    expect(checkProgramStructure(load())).toEqual([]);
  });

  it('names a branch target beyond the program (what a 32-bit compiler writes for a fall-through)', () => {
    const program = load();
    const i = program.statements.findIndex((s) => s.kind === 'invocation');
    const s = program.statements[i]!;
    if (s.kind !== 'invocation') throw new Error('unreachable');
    s.branches[0]!.target = 2 ** 32 - 1;
    const problems = checkProgramStructure(program);
    expect(problems).toEqual([
      `statement ${i} branches to statement 4294967295, beyond the last (${program.statements.length - 1})`,
    ]);
    expect(() => prepareProgram(program)).toThrow(SierraRunError);
    expect(() => prepareProgram(program)).toThrow(/malformed program: statement \d+ branches to statement 4294967295/);
  });

  it('names a fall-through off the end, a function entry outside, an undeclared libfunc and an undefined callee', () => {
    const program = load();
    const n = program.statements.length;
    program.statements[n - 1] = {
      kind: 'invocation',
      libfuncId: 0,
      args: [],
      branches: [{ target: 'fallthrough', results: [] }],
    };
    program.funcs[0]!.entryPoint = n + 3;
    program.statements[0] = { kind: 'invocation', libfuncId: 99_999, args: [], branches: [{ target: 1, results: [] }] };
    const call = program.libfuncDeclarations.find((d) => d.genericId === 'function_call')!;
    call.genericArgs = [{ kind: 'userFunc', id: 10_000 }];
    const problems = checkProgramStructure(program, 10);
    expect(problems).toContain(`libfunc ${call.id} (function_call) calls a function the program does not define`);
    expect(problems).toContain('statement 0 invokes undeclared libfunc 99999');
    expect(problems).toContain(`statement ${n - 1} falls through past the end of the program`);
    expect(problems).toContain(`function 0 starts at statement ${n + 3}, beyond the last (${n - 1})`);
    expect(checkProgramStructure(program, 2)).toHaveLength(2);
  });
});
