import { encodeSierraProgram, type SierraProgram } from '@nodegate/sierra-vm';
import { hash, num } from 'starknet';

/**
 * The contract class, as a declarer sends it, of a Sierra program written by hand: the program's felts (Sierra 1.7.0,
 * compiler 2.11.0), the external entry points given as `name → function index` (sorted by selector, as Starknet
 * requires), no constructor nor L1 handler.
 *
 * @example
 * const { program } = parseSierraText(text);
 * await account.declare({ contract: sierraContractClass(program, { get_answer: 0 }), compiledClassHash: '0x1' });
 */
export function sierraContractClass(
  program: SierraProgram,
  externals: Readonly<Record<string, number>> = {},
  abi: readonly unknown[] = [],
) {
  const felts = encodeSierraProgram({
    sierraVersion: { major: 1, minor: 7, patch: 0 },
    compilerVersion: { major: 2, minor: 11, patch: 0 },
    program,
  });
  return {
    sierra_program: felts.map((x) => num.toHex(x)),
    contract_class_version: '0.1.0',
    entry_points_by_type: {
      CONSTRUCTOR: [],
      EXTERNAL: Object.entries(externals)
        .map(([name, idx]) => ({ selector: hash.getSelectorFromName(name), function_idx: idx }))
        .sort((a, b) => (BigInt(a.selector) < BigInt(b.selector) ? -1 : 1)),
      L1_HANDLER: [],
    },
    abi: [...abi],
  };
}
