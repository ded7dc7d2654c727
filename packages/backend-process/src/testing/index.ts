/** Test helpers for backends' supervision tests: process trees whose parent can be killed. */
export { processRuns as alive } from '../processRuns.js';
export { startTree, within } from './processTree.js';
