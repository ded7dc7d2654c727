// The Hades permutation of Starknet's Poseidon (width 3, 8 full and 83 partial rounds, cube S-box), computed on
// WebAssembly (hadesWasm.ts); checked against starknet.js in hashes.test.ts.
export { hadesPermutationWasm as hadesPermutation } from './hadesWasm.js';
