import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ec } from 'starknet';
import { describe, expect, it } from 'vitest';
import { decodeSierraProgram } from '../decodeSierraProgram.js';
import { parseFelts } from '../parseFelts.js';
import { buildTypeRegistry } from './buildTypeRegistry.js';
import { constValue } from './constValue.js';

const FIXTURES =
  process.env.CAIRO_TEST_DATA ?? new URL('../../../../../shared/fixtures/cairo-test-data', import.meta.url).pathname;

describe('constValue', () => {
  it('reads Const<EcPoint, x, y> (the account fixture holds the curve generator for its ECDSA check)', () => {
    const cls = JSON.parse(readFileSync(join(FIXTURES, 'account__account.contract_class.json'), 'utf8'));
    const { program } = decodeSierraProgram(parseFelts(cls.sierra_program));
    const registry = buildTypeRegistry(program);
    const points = program.typeDeclarations.filter(
      (t) =>
        t.genericId === 'Const' &&
        t.genericArgs[0]?.kind === 'type' &&
        program.typeDeclarations[t.genericArgs[0].id]?.genericId === 'EcPoint',
    );
    expect(points.length).toBeGreaterThan(0);
    const base = ec.starkCurve.ProjectivePoint.BASE.toAffine();
    expect(points.map((t) => constValue(registry, t.id))).toContainEqual([base.x, base.y]);
  });
});
