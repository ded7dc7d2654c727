// The Hades permutation of Starknet's Poseidon (width 3, 8 full and 83 partial rounds, cube S-box), computed on
// WebAssembly (starkWasm.ts); checked against starknet.js in hashes.test.ts.
export { hadesPermutationWasm as hadesPermutation } from './starkWasm.js';
