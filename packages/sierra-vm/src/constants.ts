/** The Stark field prime P = 2^251 + 17·2^192 + 1: every felt is below it. */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** `usize::MAX` of the serializing compiler (64-bit): the branch target that means "fall through". */
export const FALLTHROUGH_TARGET = 2n ** 64n - 1n;

/** The longest generic id (in UTF-8 bytes) written inline as a short string. */
export const SHORT_STRING_BOUND = 31;

/**
 * The generic ids longer than {@link SHORT_STRING_BOUND} that the compiler accepts: they are written as their
 * starknet_keccak (keccak256 of the name, low 250 bits), listed here by name.
 */
export const LONG_GENERIC_IDS: ReadonlyMap<string, bigint> = new Map([
  ['storage_address_from_base_and_offset', 0x2679d68052ccd03a53755ca9169677965fbd93e489df62f5f40d4f03c24f7a4n],
  ['contract_address_try_from_felt252', 0x21adb5788e32c84f69a1863d85ef9394b7bf761a0ce1190f826984e5075c371n],
  ['storage_base_address_from_felt252', 0xad292db4ff05a993c318438c1b6c8a8303266af2da151aa28ccece6726f1f1n],
  ['storage_address_try_from_felt252', 0x1ad5911ecb88aa4a50482c4de3232f196cfcaf7bd4e9c96d22b283733045007n],
  ['secp256k1_get_point_from_x_syscall', 0x393d13543d6033e70e218aad8050e8de40a1dfbac0e80459811df56e3716ce6n],
  ['secp256r1_get_point_from_x_syscall', 0x38757fc6ad96fab837f69741024e18cbedcf9445933917989f3d1d58af02312n],
  ['circuit_failure_guarantee_verify', 0x4ef3b3bc4d34db6611aef96d643937624ebee01d56eae5bde6f3b158e32b15n],
  ['u96_limbs_less_than_guarantee_verify', 0x3ec1c84a1511eed894537833882a965abdddafab0d627a3ee76e01e6b57f37an],
  ['u96_single_limb_less_than_guarantee_verify', 0x1d1238f44227bdf67f367571e4dec83368c54054d98ccf71a67381f7c51f1c4n],
]);
