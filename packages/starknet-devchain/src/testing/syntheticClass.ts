import { parseSierraText } from '@nodegate/sierra-vm';
import { hash } from 'starknet';
import { sierraContractClass } from './sierraContractClass.js';

/** The answer of {@link syntheticClass}`(tag)`'s `get_answer`: the tag's starknet_keccak. */
export const syntheticAnswer = (tag: string): bigint => BigInt(hash.starknetKeccak(tag));

/**
 * A small, valid Sierra class unique to `tag`: one external entry point `get_answer` that returns
 * [`syntheticAnswer(tag)`], no constructor. For tests that declare and deploy classes without caring about their
 * code (its program differs per tag, so does its class hash); the dev chain decodes and runs it like any class.
 *
 * @example
 * const { contract, classHash } = syntheticClass('my-test');
 * await account.declare({ contract, compiledClassHash: '0x1234' });
 */
export function syntheticClass(tag: string) {
  const span = 'core::array::Span::<core::felt252>';
  const result = `core::panics::PanicResult::<(${span},)>`;
  const t = (name: string, generic = name) =>
    `type ${name} = ${generic} [storable: true, drop: true, dup: true, zero_sized: false];`;
  const { program } = parseSierraText(`
${t('felt252')}
${t('GasBuiltin')}
${t('System')}
${t('Array<felt252>')}
${t('Snapshot<Array<felt252>>')}
${t(span, `Struct<ut@${span}, Snapshot<Array<felt252>>>`)}
${t(`Tuple<${span}>`, `Struct<ut@Tuple, ${span}>`)}
${t('core::panics::Panic', 'Struct<ut@core::panics::Panic>')}
${t('Tuple<core::panics::Panic, Array<felt252>>', 'Struct<ut@Tuple, core::panics::Panic, Array<felt252>>')}
${t(result, `Enum<ut@${result}, Tuple<${span}>, Tuple<core::panics::Panic, Array<felt252>>>`)}

libfunc drop<${span}> = drop<${span}>;
libfunc felt252_const<${syntheticAnswer(tag)}> = felt252_const<${syntheticAnswer(tag)}>;
libfunc array_new<felt252> = array_new<felt252>;
libfunc array_append<felt252> = array_append<felt252>;
libfunc snapshot_take<Array<felt252>> = snapshot_take<Array<felt252>>;
libfunc drop<Array<felt252>> = drop<Array<felt252>>;
libfunc struct_construct<${span}> = struct_construct<${span}>;
libfunc struct_construct<Tuple<${span}>> = struct_construct<Tuple<${span}>>;
libfunc enum_init<${result}, 0> = enum_init<${result}, 0>;

drop<${span}>([2]) -> (); // 0
felt252_const<${syntheticAnswer(tag)}>() -> ([3]); // 1
array_new<felt252>() -> ([4]); // 2
array_append<felt252>([4], [3]) -> ([5]); // 3
snapshot_take<Array<felt252>>([5]) -> ([6], [7]); // 4
drop<Array<felt252>>([6]) -> (); // 5
struct_construct<${span}>([7]) -> ([8]); // 6
struct_construct<Tuple<${span}>>([8]) -> ([9]); // 7
enum_init<${result}, 0>([9]) -> ([10]); // 8
return([0], [1], [10]); // 9

get_answer@0([0]: GasBuiltin, [1]: System, [2]: ${span}) -> (GasBuiltin, System, ${result});
`);
  const contract = sierraContractClass(program, { get_answer: 0 }, [
    {
      type: 'function',
      name: 'get_answer',
      inputs: [],
      outputs: [{ type: 'core::felt252' }],
      state_mutability: 'view',
    },
  ]);
  return { contract, classHash: hash.computeSierraContractClassHash(contract as never) };
}
