/** Test helpers for backends' supervision tests: process trees whose parent can be killed. */
export { alive, startTree, within } from './processTree.js';
