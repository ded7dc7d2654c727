import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSierraProgram } from './decodeSierraProgram.js';
import { longGenericIdsFromDebugInfo } from './longGenericIdsFromDebugInfo.js';
import type { GenericArg, SierraProgram } from './types.js';

const FIXTURES = process.env.CAIRO_TEST_DATA ?? '/work/shared/fixtures/cairo-test-data';
const files = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.contract_class.json') && !f.endsWith('.compiled_contract_class.json'))
      .sort()
  : [];

interface ContractClass {
  sierra_program: string[];
  sierra_program_debug_info: {
    type_names: [number, string][];
    libfunc_names: [number, string][];
    user_func_names: [number, string][];
  };
  entry_points_by_type: Record<string, { selector: string; function_idx: number }[]>;
}
const load = (file: string): ContractClass => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));

/** Every reference inside the program points at something declared. */
function checkReferences(p: SierraProgram): void {
  const checkArg = (a: GenericArg): void => {
    if (a.kind === 'type') expect(a.id).toBeLessThan(p.typeDeclarations.length);
    if (a.kind === 'libfunc') expect(a.id).toBeLessThan(p.libfuncDeclarations.length);
    if (a.kind === 'userFunc') expect(a.id).toBeLessThan(p.funcs.length);
  };
  p.typeDeclarations.forEach((t, i) => {
    expect(t.id).toBe(i);
    t.genericArgs.forEach(checkArg);
  });
  p.libfuncDeclarations.forEach((l, i) => {
    expect(l.id).toBe(i);
    l.genericArgs.forEach(checkArg);
  });
  for (const s of p.statements) {
    if (s.kind === 'return') continue;
    expect(s.libfuncId).toBeLessThan(p.libfuncDeclarations.length);
    // No branches is legal: `enum_match` on an enum without variants never continues.
    for (const b of s.branches) if (b.target !== 'fallthrough') expect(b.target).toBeLessThan(p.statements.length);
  }
  p.funcs.forEach((f, i) => {
    expect(f.id).toBe(i);
    expect(f.entryPoint).toBeLessThan(p.statements.length);
    for (const ty of [...f.signature.paramTypes, ...f.signature.retTypes]) {
      expect(ty).toBeLessThan(p.typeDeclarations.length);
    }
    expect(f.params.map((x) => x.ty)).toEqual(f.signature.paramTypes);
  });
}

describe.skipIf(files.length === 0)(`decodeSierraProgram on ${FIXTURES}`, () => {
  it('finds the fixture classes', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(files)('%s: versions, counts and references', (file) => {
    const cls = load(file);
    const decoded = decodeSierraProgram(cls.sierra_program);
    const { sierraVersion, compilerVersion, program } = decoded;
    expect(sierraVersion.major).toBe(1);
    expect(compilerVersion.major).toBe(2);
    expect(program.statements.length).toBeGreaterThan(0);

    // The debug info is written by the same compiler: one name per declared id.
    const debug = cls.sierra_program_debug_info;
    expect(debug.type_names.map(([id]) => id)).toEqual(program.typeDeclarations.map((t) => t.id));
    expect(debug.libfunc_names.map(([id]) => id)).toEqual(program.libfuncDeclarations.map((l) => l.id));
    expect(debug.user_func_names.map(([id]) => id)).toEqual(program.funcs.map((f) => f.id));
    // A concrete libfunc's debug name starts with its generic id (`store_temp<felt252>`).
    for (const [id, name] of debug.libfunc_names) {
      expect(name.split('<')[0]).toBe(program.libfuncDeclarations[id]!.genericId);
    }

    checkReferences(program);
    // Long ids taken from the debug names decode the same (they are the ones the package already knows).
    const longGenericIds = longGenericIdsFromDebugInfo(debug);
    expect(decodeSierraProgram(cls.sierra_program, { longGenericIds })).toEqual(decoded);
    for (const eps of Object.values(cls.entry_points_by_type)) {
      for (const ep of eps) expect(ep.function_idx).toBeLessThan(program.funcs.length);
    }
    // The last statement of a function body cannot fall through past the program.
    const last = program.statements.at(-1)!;
    if (last.kind === 'invocation') expect(last.branches.every((b) => b.target !== 'fallthrough')).toBe(true);
  });

  it('reads the two header generations of the fixtures', () => {
    const versions = new Set(
      files.map((f) => {
        const d = decodeSierraProgram(load(f).sierra_program);
        const v = (x: { major: number; minor: number; patch: number }) => `${x.major}.${x.minor}.${x.patch}`;
        return `${v(d.sierraVersion)}/${v(d.compilerVersion)}`;
      }),
    );
    expect([...versions].sort()).toEqual(['1.3.0/2.3.1', '1.4.0/2.3.1', '1.9.3/2.20.0']);
  });

  it('lists the generic libfuncs used across the fixtures, the well-known ones included', () => {
    const names = new Set<string>();
    for (const f of files) {
      for (const l of decodeSierraProgram(load(f).sierra_program).program.libfuncDeclarations) names.add(l.genericId);
    }
    const sorted = [...names].sort();
    for (const known of [
      'felt252_add',
      'felt252_sub',
      'felt252_is_zero',
      'u128_overflowing_add',
      'u128_overflowing_sub',
      'store_temp',
      'function_call',
      'enum_init',
      'enum_match',
      'struct_construct',
      'struct_deconstruct',
      'array_new',
      'array_append',
      'withdraw_gas',
      'branch_align',
      'storage_read_syscall',
      'storage_write_syscall',
      'emit_event_syscall',
      'storage_address_from_base_and_offset',
    ]) {
      expect(sorted).toContain(known);
    }
    expect(sorted.length).toBeGreaterThan(150);
  });

  it('refuses a truncated program', () => {
    const felts = load(files[0]!).sierra_program;
    expect(() => decodeSierraProgram(felts.slice(0, -1))).toThrow();
    expect(() => decodeSierraProgram(felts.slice(0, 4))).toThrow(/version header/);
  });
});
