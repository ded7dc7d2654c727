/** What every embedded nodegate backend process does under the gateway's supervision. */
export { exitWithParent } from './exitWithParent.js';
export { holdLockFile } from './holdLockFile.js';
export { processRuns } from './processRuns.js';
