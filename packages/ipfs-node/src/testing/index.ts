export {
  cidVectors,
  directoryVectors,
  type IpfsContractSuiteOptions,
  type IpfsContractTarget,
  ipfsContractSuite,
} from './ipfsContractSuite.js';
export { pseudoRandomChunks } from './testData.js';
