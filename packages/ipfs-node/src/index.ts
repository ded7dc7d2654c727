export { IpfsNodeError, type IpfsErrorKind } from './errors.js';
export { runIpfsNodeCli } from './runIpfsNodeCli.js';
export { type IpfsNode, type IpfsNodeOptions, startIpfsNode } from './startIpfsNode.js';
export { commandTable, type CommandName } from './commands/table.js';
