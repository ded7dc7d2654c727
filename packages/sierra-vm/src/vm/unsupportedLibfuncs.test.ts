// Libfunc coverage of the interpreter over the Cairo fixture contract classes: every one has a handler.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSierraProgram } from '../decodeSierraProgram.js';
import { longGenericIdsFromDebugInfo } from '../longGenericIdsFromDebugInfo.js';
import { unsupportedLibfuncs } from './unsupportedLibfuncs.js';

const FIXTURES = process.env.CAIRO_TEST_DATA ?? '/work/shared/fixtures/cairo-test-data';
const files = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.contract_class.json') && !f.endsWith('.compiled_contract_class.json'))
      .sort()
  : [];

describe.skipIf(files.length === 0)(`unsupportedLibfuncs on ${FIXTURES}`, () => {
  it('lists, per class, the declared generic libfuncs without a handler: none', () => {
    const lines: string[] = [];
    let supported = 0;
    let declared = 0;
    for (const file of files) {
      const cls = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
      const longGenericIds = longGenericIdsFromDebugInfo(cls.sierra_program_debug_info);
      const { program } = decodeSierraProgram(cls.sierra_program, { longGenericIds });
      const generic = new Set(program.libfuncDeclarations.map((l) => l.genericId));
      const missing = unsupportedLibfuncs(program);
      expect(missing).toEqual([...new Set(missing)].sort());
      for (const m of missing) expect(generic.has(m)).toBe(true);
      // Every generic libfunc of the Cairo test data runs (libfuncs_coverage declares them all).
      expect(missing, file).toEqual([]);
      declared += generic.size;
      supported += generic.size - missing.length;
      lines.push(`${file}: ${generic.size - missing.length}/${generic.size} supported; missing: ${missing.join(' ')}`);
    }
    console.log(`${lines.join('\n')}\ntotal: ${supported}/${declared} generic libfuncs supported`);
  });
});
