import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Cairo compiler's test classes: `CAIRO_TEST_DATA`, else `shared/fixtures/cairo-test-data` beside the repository. */
const CAIRO_TEST_DATA =
  process.env.CAIRO_TEST_DATA ?? new URL('../../../../../shared/fixtures/cairo-test-data', import.meta.url).pathname;

/**
 * A class of the Cairo compiler's test data, read in place: `<name>.contract_class.json` (what a declarer sends) or
 * `<name>.compiled_contract_class.json` (its CASM, for the compiled class hash).
 *
 * @example
 * const contract = readCairoTestData('erc20__erc_20');
 * const compiledClassHash = hash.computeCompiledClassHash(readCairoTestData('erc20__erc_20', 'compiled_contract_class'));
 */
export function readCairoTestData(name: string, kind: 'contract_class' | 'compiled_contract_class' = 'contract_class') {
  return JSON.parse(readFileSync(join(CAIRO_TEST_DATA, `${name}.${kind}.json`), 'utf8'));
}
