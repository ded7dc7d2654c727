import { describe, expect, it } from 'vitest';
import { FALLTHROUGH_TARGET } from './constants.js';
import { decodeSierraProgram } from './decodeSierraProgram.js';
import { deserializeSierraProgram } from './deserializeSierraProgram.js';
import { encodeGenericId } from './encodeGenericId.js';
import { encodeSierraProgram } from './encodeSierraProgram.js';
import { longGenericIdsFromDebugInfo } from './longGenericIdsFromDebugInfo.js';
import { serializeSierraProgram } from './serializeSierraProgram.js';
import { starknetKeccak } from './starknetKeccak.js';
import type { SierraProgram } from './types.js';

const program: SierraProgram = {
  typeDeclarations: [
    {
      id: 0,
      genericId: 'felt252',
      genericArgs: [],
      declaredTypeInfo: { storable: true, droppable: true, duplicatable: true, zeroSized: false },
    },
    {
      id: 1,
      genericId: 'Struct',
      genericArgs: [
        { kind: 'userType', id: 0x1234n },
        { kind: 'type', id: 0 },
      ],
    },
    {
      id: 2,
      genericId: 'Const',
      genericArgs: [
        { kind: 'type', id: 0 },
        { kind: 'value', value: -5n },
      ],
    },
  ],
  libfuncDeclarations: [
    { id: 0, genericId: 'felt252_add', genericArgs: [] },
    { id: 1, genericId: 'function_call', genericArgs: [{ kind: 'userFunc', id: 0 }] },
    { id: 2, genericId: 'felt252_const', genericArgs: [{ kind: 'value', value: 7n }] },
    { id: 3, genericId: 'coupon_call', genericArgs: [{ kind: 'libfunc', id: 1 }] },
  ],
  statements: [
    { kind: 'invocation', libfuncId: 0, args: [0, 1], branches: [{ target: 'fallthrough', results: [2] }] },
    { kind: 'invocation', libfuncId: 2, args: [], branches: [{ target: 3, results: [3] }] },
    { kind: 'return', vars: [] },
    { kind: 'return', vars: [2, 3] },
  ],
  funcs: [
    {
      id: 0,
      signature: { paramTypes: [0, 0], retTypes: [0, 0] },
      params: [
        { id: 0, ty: 0 },
        { id: 1, ty: 0 },
      ],
      entryPoint: 0,
    },
  ],
};

describe('serializeSierraProgram', () => {
  it('writes the layout field by field', () => {
    const g = (s: string) => encodeGenericId(s);
    const FT = FALLTHROUGH_TARGET;
    // biome-ignore format: one declaration, statement or function per line
    expect(serializeSierraProgram(program)).toEqual([
      3n, // types
      g('felt252'), ((1n << 63n) | 7n) << 128n, // no args; type info: marker + storable, droppable, duplicatable
      g('Struct'), 2n, 0n, 0x1234n, 1n, 0n, // user type 0x1234, concrete type 0
      g('Const'), 2n, 1n, 0n, 5n, 5n, // concrete type 0, value -5 (tag 5, then 5)
      4n, // libfuncs
      g('felt252_add'), 0n,
      g('function_call'), 1n, 3n, 0n,
      g('felt252_const'), 1n, 2n, 7n,
      g('coupon_call'), 1n, 4n, 1n,
      4n, // statements
      0n, 0n, 2n, 0n, 1n, 1n, FT, 1n, 2n, // invocation of 0 on (0, 1), falls through binding 2
      0n, 2n, 0n, 1n, 3n, 1n, 3n, // invocation of 2, jumps to 3 binding 3
      1n, 0n, // return ()
      1n, 2n, 2n, 3n, // return (2, 3)
      1n, // functions
      2n, 0n, 0n, 2n, 0n, 0n, 0n, 1n, 0n, // params (0, 0), returns (0, 0), param vars 0 and 1, entry 0
    ]);
  });

  it('round-trips every generic argument kind, type info, fall-through and negative values', () => {
    expect(deserializeSierraProgram(serializeSierraProgram(program))).toEqual(program);
    const decoded = {
      sierraVersion: { major: 1, minor: 7, patch: 0 },
      compilerVersion: { major: 2, minor: 11, patch: 4 },
      program,
    };
    expect(decodeSierraProgram(encodeSierraProgram(decoded))).toEqual(decoded);
  });

  it('refuses ids out of order and parameters that do not match the signature', () => {
    const badTypes = { ...program, typeDeclarations: [...program.typeDeclarations].reverse() };
    expect(() => serializeSierraProgram(badTypes)).toThrow(/type declaration 0 has id 2/);
    const badParams = {
      ...program,
      funcs: [
        {
          ...program.funcs[0]!,
          params: [
            { id: 0, ty: 1 },
            { id: 1, ty: 0 },
          ],
        },
      ],
    };
    expect(() => serializeSierraProgram(badParams)).toThrow(/param 0 type/);
  });

  it('refuses trailing felts', () => {
    expect(() => deserializeSierraProgram([...serializeSierraProgram(program), 0n])).toThrow(/1 felts left/);
  });
});

describe('long generic ids from debug info', () => {
  const longName = 'some_future_libfunc_with_a_long_name';
  const withLong: SierraProgram = {
    ...program,
    libfuncDeclarations: [...program.libfuncDeclarations, { id: 4, genericId: longName, genericArgs: [] }],
  };
  const debugInfo = { libfunc_names: [[4, `${longName}<felt252>`]] as [number, string][], type_names: [] };

  it('are written as their starknet_keccak and read back by name', () => {
    const longGenericIds = longGenericIdsFromDebugInfo(debugInfo);
    expect(longGenericIds).toEqual(new Map([[longName, starknetKeccak(longName)]]));
    const felts = serializeSierraProgram(withLong, { longGenericIds });
    expect(felts).toContain(starknetKeccak(longName));
    expect(() => deserializeSierraProgram(felts)).toThrow(/neither a known long id nor UTF-8/);
    expect(deserializeSierraProgram(felts, { longGenericIds })).toEqual(withLong);
  });

  it('cannot be written unless known', () => {
    expect(() => serializeSierraProgram(withLong)).toThrow(/longer than 31 bytes/);
  });
});
