/** Parsing of a submitted Sierra class. */
import { gunzipSync } from 'node:zlib';
import type { SierraContractClass, SierraEntryPoint } from '../contracts/sierraClass.js';
import { DevchainError, ErrorCode, invalidParams } from '../errors.js';
import { parseFelt, parseFelts, toHex } from '../felt.js';
import { requireObject } from './requireObject.js';

function parseEntryPoints(value: unknown, field: string): SierraEntryPoint[] {
  if (!Array.isArray(value)) throw invalidParams(`${field}: expected an array`);
  return value.map((e, i) => {
    const o = requireObject(e, `${field}[${i}]`);
    return { selector: toHex(parseFelt(o.selector, `${field}[${i}].selector`)), function_idx: Number(o.function_idx) };
  });
}

/** Largest accepted Sierra program, in felts (about the protocol's 4 MB class size limit). */
export const MAX_SIERRA_FELTS = 81_290;

/** Parse a submitted Sierra class (the program may be an array or a gzip+base64 string). */
export function parseContractClass(value: unknown): SierraContractClass {
  const o = requireObject(value, 'contract_class');
  let program = o.sierra_program;
  if (typeof program === 'string') {
    try {
      program = JSON.parse(gunzipSync(Buffer.from(program, 'base64')).toString('utf8'));
    } catch {
      throw invalidParams('contract_class.sierra_program: not an array nor a compressed program');
    }
  }
  const eps = requireObject(o.entry_points_by_type, 'contract_class.entry_points_by_type');
  const abi = o.abi === undefined ? '' : typeof o.abi === 'string' ? o.abi : JSON.stringify(o.abi);
  if (typeof o.contract_class_version !== 'string') {
    throw invalidParams('contract_class.contract_class_version: expected a string');
  }
  if (o.contract_class_version !== '0.1.0') {
    throw new DevchainError(ErrorCode.UNSUPPORTED_CONTRACT_CLASS_VERSION, {
      data: `contract_class_version ${o.contract_class_version} (supported: 0.1.0)`,
    });
  }
  if (Array.isArray(program) && program.length > MAX_SIERRA_FELTS) {
    throw new DevchainError(ErrorCode.CONTRACT_CLASS_SIZE_IS_TOO_LARGE, {
      data: `sierra_program has ${program.length} felts (limit ${MAX_SIERRA_FELTS})`,
    });
  }
  return {
    sierra_program: parseFelts(program, 'contract_class.sierra_program').map(toHex),
    contract_class_version: o.contract_class_version,
    entry_points_by_type: {
      CONSTRUCTOR: parseEntryPoints(eps.CONSTRUCTOR ?? [], 'CONSTRUCTOR'),
      EXTERNAL: parseEntryPoints(eps.EXTERNAL ?? [], 'EXTERNAL'),
      L1_HANDLER: parseEntryPoints(eps.L1_HANDLER ?? [], 'L1_HANDLER'),
    },
    abi,
  };
}
