export { type CommandName, commandTable } from './commands/table.js';
export { type IpfsErrorKind, IpfsNodeError } from './errors.js';
export { runIpfsNodeCli } from './runIpfsNodeCli.js';
export { type IpfsNode, type IpfsNodeOptions, startIpfsNode } from './startIpfsNode.js';
