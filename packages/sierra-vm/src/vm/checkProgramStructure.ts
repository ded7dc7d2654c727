import type { SierraProgram } from '../types.js';

/**
 * What makes a decoded program impossible to run, whatever its libfuncs do: a statement naming an undeclared
 * libfunc, a branch target outside the program, a fall-through off its last statement, a function whose entry is
 * outside it, or a `function_call` / `coupon_call` of an undefined function. Empty for a well-formed program. A
 * Sierra-to-CASM compiler refuses such a program; the dev chain refuses to declare it (COMPILATION_FAILED).
 *
 * @example
 * const problems = checkProgramStructure(decodeSierraProgram(cls.sierra_program).program);
 * if (problems.length) throw new Error(problems.join('; '));
 */
export function checkProgramStructure(program: SierraProgram, max = 5): string[] {
  const problems: string[] = [];
  const n = program.statements.length;
  const add = (p: string) => {
    if (problems.length < max) problems.push(p);
  };
  for (const decl of program.libfuncDeclarations) {
    if (decl.genericId !== 'function_call' && decl.genericId !== 'coupon_call') continue;
    const a = decl.genericArgs[0];
    if (a?.kind !== 'userFunc' || a.id >= program.funcs.length)
      add(`libfunc ${decl.id} (${decl.genericId}) calls a function the program does not define`);
  }
  program.statements.forEach((s, i) => {
    if (s.kind !== 'invocation') return;
    if (s.libfuncId >= program.libfuncDeclarations.length)
      add(`statement ${i} invokes undeclared libfunc ${s.libfuncId}`);
    for (const b of s.branches) {
      if (b.target === 'fallthrough') {
        if (i + 1 >= n) add(`statement ${i} falls through past the end of the program`);
      } else if (b.target >= n) add(`statement ${i} branches to statement ${b.target}, beyond the last (${n - 1})`);
    }
  });
  program.funcs.forEach((f, i) => {
    if (f.entryPoint >= n) add(`function ${i} starts at statement ${f.entryPoint}, beyond the last (${n - 1})`);
  });
  return problems;
}
