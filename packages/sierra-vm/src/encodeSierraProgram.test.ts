import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CompiledSierra, hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { decodeSierraProgram } from './decodeSierraProgram.js';
import { decompressFelts } from './decompressFelts.js';
import { encodeSierraProgram } from './encodeSierraProgram.js';
import { parseFelts } from './parseFelts.js';
import { serializeSierraProgram } from './serializeSierraProgram.js';

const FIXTURES = process.env.CAIRO_TEST_DATA ?? '/work/shared/fixtures/cairo-test-data';
const files = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.contract_class.json') && !f.endsWith('.compiled_contract_class.json'))
      .sort()
  : [];
const load = (file: string): CompiledSierra => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
const hex = (felts: bigint[]): string[] => felts.map((f) => `0x${f.toString(16)}`);

describe.skipIf(files.length === 0)(`encodeSierraProgram on ${FIXTURES}`, () => {
  it.each(files)('%s: decode then encode gives back the same felts', (file) => {
    const original = load(file).sierra_program;
    const decoded = decodeSierraProgram(original);
    const encoded = encodeSierraProgram(decoded);
    expect(encoded.length).toBe(original.length);
    expect(hex(encoded)).toEqual(hex(parseFelts(original)));
    // The serialization alone also round-trips (before compression).
    expect(serializeSierraProgram(decoded.program)).toEqual(decompressFelts(parseFelts(original).slice(6)));
  });

  it.each(files)('%s: the class hash (starknet.js) is unchanged by the round trip', (file) => {
    const cls = load(file);
    const before = hash.computeSierraContractClassHash(cls);
    const sierra_program = hex(encodeSierraProgram(decodeSierraProgram(cls.sierra_program)));
    expect(hash.computeSierraContractClassHash({ ...cls, sierra_program })).toBe(before);
    expect(before).toMatch(/^0x[0-9a-f]{1,64}$/);
  });

  it('changes the felts (and the class hash) when the program changes', () => {
    const cls = load(files[0]!);
    const decoded = decodeSierraProgram(cls.sierra_program);
    const at = decoded.program.statements.findIndex((s) => s.kind === 'return');
    const ret = decoded.program.statements[at]!;
    if (ret.kind === 'return') ret.vars.push(123_456);
    const sierra_program = hex(encodeSierraProgram(decoded));
    expect(sierra_program).not.toEqual(hex(parseFelts(cls.sierra_program)));
    expect(hash.computeSierraContractClassHash({ ...cls, sierra_program })).not.toBe(
      hash.computeSierraContractClassHash(cls),
    );
  });
});
