// The computing syscalls (keccak, SHA-256/512 blocks, secp256k1/r1) through compiled Cairo code and called directly,
// checked against @noble/hashes, @noble/curves and node:crypto.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type CairoResult, CallData, type RawArgsObject } from 'starknet';
import { describe, expect, it } from 'vitest';
import { starknetKeccak } from '../starknetKeccak.js';
import { findHandlerFactory } from './findHandlerFactory.js';
import { SHA512_IV } from './libfuncs/sha512Compress.js';
import { parseSierraText } from './parseSierraText.js';
import { prepareProgram } from './prepareProgram.js';
import { type EntryPointResult, loadContractClass, runEntryPoint } from './runEntryPoint.js';
import type { ArrayValue, EnumValue, RunContext, StarknetHost, Value } from './types.js';
import { newRunContext } from './newRunContext.js';

const CONTRACTS = join(import.meta.dirname, '..', '..', 'test-contracts');
const FIXTURES = process.env.CAIRO_TEST_DATA ?? '/work/shared/fixtures/cairo-test-data';
const crypto = JSON.parse(readFileSync(join(CONTRACTS, 'crypto_syscalls.contract_class.json'), 'utf8'));
const cls = loadContractClass(crypto);
const abi = new CallData(crypto.abi);

/** A host for contracts that make no state syscalls: any use is a test failure. */
const host = new Proxy({} as StarknetHost, {
  get: (_t, name) => () => {
    throw new Error(`unexpected syscall ${String(name)}`);
  },
});

/** Runs an entry point of the crypto contract with ABI-encoded arguments; its result or its panic messages. */
function call(name: string, args: Record<string, unknown>): { value?: unknown; panic?: string[]; gas: bigint } {
  const calldata = abi.compile(name, args as RawArgsObject).map((x) => BigInt(x));
  const r: EntryPointResult = runEntryPoint(cls, 'EXTERNAL', starknetKeccak(name), calldata, {
    host,
    availableGas: 10n ** 10n,
  });
  if (r.panic) return { panic: r.panic.messages, gas: r.gasLeft };
  return {
    value: abi.parse(
      name,
      r.retdata.map((x) => x.toString()),
    ),
    gas: r.gasLeft,
  };
}

/** 32 bytes read as a little-endian number (how the corelib returns keccak hashes). */
const le = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
const be = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
const bytesOf = (x: bigint, n = 32): Uint8Array => Buffer.from(x.toString(16).padStart(2 * n, '0'), 'hex');
const text = (n: number): string =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
const some = (v: unknown) => ({ Some: v, None: undefined });

describe('keccak_syscall through compiled Cairo code', () => {
  it('keccak_u256s_le_inputs equals keccak256 of the words as little-endian bytes', () => {
    for (const count of [0, 1, 4, 5, 9]) {
      const words = Array.from({ length: count }, (_, i) => (BigInt(i + 1) * 0x1234567890abcdefn) << BigInt(i * 20));
      const bytes = Buffer.concat(words.map((w) => Buffer.from(bytesOf(w)).reverse()));
      expect(call('keccak_words', { input: words }).value, `${count} words`).toBe(le(keccak_256(bytes)));
    }
  });

  it('compute_keccak_byte_array equals keccak256 of the bytes', () => {
    for (const n of [0, 1, 31, 135, 136, 200]) {
      const s = text(n);
      expect(call('keccak_bytes', { input: s }).value, `${n} bytes`).toBe(le(keccak_256(Buffer.from(s))));
    }
  });

  it("the raw syscall takes whole 17-word blocks, else fails with 'Invalid input length'", () => {
    // keccak256('') is one block: the pad10*1 bits in words 0 and 16.
    const block = [1n, ...new Array(15).fill(0n), 1n << 63n];
    const r = call('keccak_raw', { input: block }).value as CairoResult<bigint, bigint[]>;
    expect(r.isOk() && r.unwrap()).toBe(le(keccak_256(new Uint8Array())));
    const bad = call('keccak_raw', { input: block.slice(1) }).value as CairoResult<bigint, bigint[]>;
    expect(bad.isErr() && bad.unwrap()).toEqual([0x496e76616c696420696e707574206c656e677468n]); // 'Invalid input length'
  });
});

describe('sha256_process_block_syscall through compiled Cairo code', () => {
  it('compute_sha256_byte_array equals node:crypto', () => {
    for (const n of [0, 3, 55, 56, 64, 130]) {
      const s = text(n);
      const words = call('sha256_bytes', { input: s }).value as bigint[];
      const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
      expect(hex, `${n} bytes`).toBe(createHash('sha256').update(s).digest('hex'));
    }
  });
});

const CURVES = [
  { k1: true, noble: secp256k1, Point: secp256k1.Point },
  { k1: false, noble: p256, Point: p256.Point },
] as const;

describe.each(CURVES)('secp256 syscalls (k1: $k1) through compiled Cairo code', ({ k1, noble, Point }) => {
  const sk = bytesOf(0x1f2e3d4c5b6a79880123456789abcdef0f1e2d3c4b5a69788796a5b4c3d2e1f0n);
  const pub = Point.fromBytes(noble.getPublicKey(sk, false)).toAffine();
  const msg = bytesOf(0xdeadbeefcafebabe0011223344556677889900aabbccddeeff0123456789abcn);
  const sig = noble.Signature.fromBytes(noble.sign(msg, sk, { prehash: false, format: 'recovered' }), 'recovered');
  const signed = { msg_hash: be(msg), r: sig.r, s: sig.s };

  it('verifies a signature made by @noble/curves, and refuses a changed message', () => {
    expect(call('verify', { k1, ...signed, x: pub.x, y: pub.y }).value).toBe(true);
    expect(call('verify', { k1, ...signed, msg_hash: be(msg) + 1n, x: pub.x, y: pub.y }).value).toBe(false);
  });

  it('recovers the public key from the signature and the parity of R', () => {
    const y_parity = (sig.recovery! & 1) === 1;
    expect(call('recover', { k1, ...signed, y_parity }).value).toEqual(some({ 0: pub.x, 1: pub.y }));
    expect(call('recover', { k1, ...signed, y_parity: !y_parity }).value).not.toEqual(some({ 0: pub.x, 1: pub.y }));
  });

  it('gets a point from x with the asked parity, none for an x on no point', () => {
    const q = Point.BASE.multiply(123456789n).toAffine();
    const odd = (q.y & 1n) === 1n;
    const p = noble.Point.Fp.ORDER;
    expect(call('point_from_x', { k1, x: q.x, y_parity: odd }).value).toEqual(some({ 0: q.x, 1: q.y }));
    expect(call('point_from_x', { k1, x: q.x, y_parity: !odd }).value).toEqual(some({ 0: q.x, 1: p - q.y }));
    let x = 5n;
    const isX = (v: bigint) => {
      try {
        Point.fromBytes(Uint8Array.from([2, ...bytesOf(v)]));
        return true;
      } catch {
        return false;
      }
    };
    while (isX(x)) x++;
    expect(call('point_from_x', { k1, x, y_parity: true }).value).toEqual({ Some: undefined, None: true });
  });

  it("new: a point on the curve, none off it, (0, 0) at infinity, 'Invalid argument' for coordinates >= p", () => {
    const p = noble.Point.Fp.ORDER;
    expect(call('new_point', { k1, x: pub.x, y: pub.y }).value).toEqual(some({ 0: pub.x, 1: pub.y }));
    expect(call('new_point', { k1, x: pub.x, y: pub.y + 1n }).value).toEqual({ Some: undefined, None: true });
    expect(call('new_point', { k1, x: 0n, y: 0n }).value).toEqual(some({ 0: 0n, 1: 0n }));
    expect(call('new_point', { k1, x: p, y: pub.y }).panic).toEqual(['Invalid argument']);
    expect(call('new_point', { k1, x: pub.x, y: p }).panic).toEqual(['Invalid argument']);
  });

  it('mul and add equal @noble/curves, the point at infinity read back as (0, 0)', () => {
    const k = 0x7777n;
    const l = (1n << 255n) + 99n;
    const want = Point.BASE.multiply(k)
      .add(Point.fromAffine(pub).multiply(l % Point.Fn.ORDER))
      .toAffine();
    expect(call('mul_add', { k1, k, l, x: pub.x, y: pub.y }).value).toEqual({ 0: want.x, 1: want.y });
    // k·G + (n − k)·G is the point at infinity.
    const g = Point.BASE.toAffine();
    expect(call('mul_add', { k1, k, l: Point.Fn.ORDER - k, x: g.x, y: g.y }).value).toEqual({ 0: 0n, 1: 0n });
  });
});

describe('verify_eth_signature through compiled Cairo code', () => {
  it('accepts the signer Ethereum address and refuses another one', () => {
    const sk = bytesOf(0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef01234567n);
    const uncompressed = secp256k1.getPublicKey(sk, false);
    const address = be(keccak_256(uncompressed.slice(1)).slice(12));
    const msg = bytesOf(0x1234n);
    const sig = secp256k1.Signature.fromBytes(
      secp256k1.sign(msg, sk, { prehash: false, format: 'recovered' }),
      'recovered',
    );
    const args = { msg_hash: be(msg), r: sig.r, s: sig.s, y_parity: sig.recovery === 1, address };
    expect(call('verify_eth', args).panic).toBeUndefined();
    expect(call('verify_eth', { ...args, address: address + 1n }).panic?.length).toBeGreaterThan(0);
  });
});

describe('the computing syscalls called directly', () => {
  const { program } = parseSierraText(
    'type felt252 = felt252 [storable: true, drop: true, dup: true, zero_sized: false];',
  );
  const env = { program, registry: prepareProgram(program).registry };
  const ctx = newRunContext();
  const run = (genericId: string, args: Value[], c: RunContext = ctx): [number, Value[]] => {
    const out: Value[] = [];
    const branch = findHandlerFactory(genericId)!({ id: 0, genericId, genericArgs: [] }, env)(args, out, c);
    return [branch, out];
  };
  const GAS = 10n ** 7n;
  const span = (xs: bigint[]): Value => [{ data: xs, start: 0, end: xs.length } satisfies ArrayValue];
  const felts = (v: Value | undefined) => {
    const a = v as ArrayValue;
    return a.data.slice(a.start, a.end);
  };

  it('sha512_process_block_syscall: one padded block gives SHA-512 of a short message (node:crypto)', () => {
    const m = Buffer.from('nodegate');
    const block = new Uint8Array(128);
    block.set(m);
    block[m.length] = 0x80;
    new DataView(block.buffer).setBigUint64(120, BigInt(m.length * 8));
    const words = Array.from({ length: 16 }, (_, i) => new DataView(block.buffer).getBigUint64(8 * i));
    const [branch, out] = run('sha512_process_block_syscall', [GAS, null, [...SHA512_IV], words]);
    expect(branch).toBe(0);
    const hex = (out[2] as bigint[]).map((w) => w.toString(16).padStart(16, '0')).join('');
    expect(hex).toBe(createHash('sha512').update(m).digest('hex'));
    // A block that is not 16 words is refused through the error branch.
    expect(run('sha512_process_block_syscall', [GAS, null, [...SHA512_IV], words.slice(1)])[0]).toBe(1);
  });

  it('meta_tx_v0_syscall goes to the host (and fails without one)', () => {
    const seen: unknown[] = [];
    const withHost: RunContext = {
      ...ctx,
      host: {
        ...host,
        metaTxV0: (address, selector, calldata, signature) => {
          seen.push({ address, selector, calldata, signature });
          return [42n];
        },
      },
    };
    const args = [GAS, null, 0x123n, starknetKeccak('__execute__'), span([1n, 2n]), span([3n])];
    const [branch, out] = run('meta_tx_v0_syscall', args, withHost);
    expect(branch).toBe(0);
    expect(felts((out[2] as Value[])[0])).toEqual([42n]);
    expect(seen).toEqual([
      { address: 0x123n, selector: starknetKeccak('__execute__'), calldata: [1n, 2n], signature: [3n] },
    ]);
    const [failed, err] = run('meta_tx_v0_syscall', args);
    expect(failed).toBe(1);
    expect(felts(err[2])).toEqual([0x53595343414c4c5f4e4f545f535550504f52544544n]); // 'SYSCALL_NOT_SUPPORTED'
  });

  it('secp get_xy of the point at infinity is (0, 0); get_point_from_x refuses x >= p', () => {
    const [, out] = run('secp256k1_get_xy_syscall', [GAS, null, [0n, 0n]]);
    expect(out.slice(2)).toEqual([
      [0n, 0n],
      [0n, 0n],
    ]);
    const p = secp256k1.Point.Fp.ORDER;
    const tooBig = [p & ((1n << 128n) - 1n), p >> 128n];
    const [branch, err] = run('secp256k1_get_point_from_x_syscall', [
      GAS,
      null,
      tooBig,
      { tag: 0, value: [] } as EnumValue,
    ]);
    expect(branch).toBe(1);
    expect(felts(err[2])).toEqual([0x496e76616c696420617267756d656e74n]); // 'Invalid argument'
  });
});

describe('libfuncs_coverage (the Cairo test data)', () => {
  it('has no libfunc the VM lacks, and its entry point (all_libfuncs(None): a match that does nothing) runs', () => {
    const fixture = JSON.parse(
      readFileSync(join(FIXTURES, 'libfuncs_coverage__libfuncs_coverage.contract_class.json'), 'utf8'),
    );
    const loaded = loadContractClass(fixture);
    expect(loaded.unsupportedLibfuncs).toEqual([]);
    const r = runEntryPoint(loaded, 'EXTERNAL', starknetKeccak('entry_point'), [], { host });
    expect(r.panic).toBeUndefined();
    expect(r.retdata).toEqual([]);
  });
});
