/** Native Universal Deployer: deploy_contract(class_hash, salt, not_from_zero, calldata). */
import { pedersen, selector } from '../crypto/hashes.js';
import { CalldataReader } from './calldata.js';
import type { NativeClassDef } from './types.js';

const CONTRACT_DEPLOYED = selector('ContractDeployed');

/** The native Universal Deployer class. */
export const udcClass: NativeClassDef = {
  name: 'nodegate::udc::UniversalDeployer',
  interfaceName: 'nodegate::udc::IUniversalDeployer',
  account: false,
  constructorInputs: [],
  functions: [
    {
      name: 'deploy_contract',
      inputs: [
        ['class_hash', 'core::starknet::class_hash::ClassHash'],
        ['salt', 'core::felt252'],
        ['not_from_zero', 'core::bool'],
        ['calldata', 'core::array::Span::<core::felt252>'],
      ],
      outputs: ['core::starknet::contract_address::ContractAddress'],
      mutability: 'external',
      run: (ctx, cd) => {
        const r = new CalldataReader(cd);
        const classHash = r.felt();
        const salt = r.felt();
        const notFromZero = r.bool();
        const calldata = r.array();
        const deployer = ctx.caller;
        const effectiveSalt = notFromZero ? pedersen(deployer, salt) : salt;
        const address = ctx.deploy(classHash, effectiveSalt, calldata, !notFromZero);
        ctx.emit(
          [CONTRACT_DEPLOYED],
          [address, deployer, notFromZero ? 1n : 0n, classHash, BigInt(calldata.length), ...calldata, salt],
        );
        return [address];
      },
    },
  ],
  events: [
    {
      name: 'ContractDeployed',
      members: [
        ['address', 'core::starknet::contract_address::ContractAddress', 'data'],
        ['deployer', 'core::starknet::contract_address::ContractAddress', 'data'],
        ['not_from_zero', 'core::bool', 'data'],
        ['class_hash', 'core::starknet::class_hash::ClassHash', 'data'],
        ['calldata', 'core::array::Span::<core::felt252>', 'data'],
        ['salt', 'core::felt252', 'data'],
      ],
    },
  ],
};
