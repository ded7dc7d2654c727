import { type IpfsCommandName, type IpfsCommandSpec, ipfsCommands, isIpfsCommandName } from './ipfsCommands.js';

/** A request path resolved to its command. */
export interface ResolvedIpfsCommand {
  readonly name: IpfsCommandName;
  readonly spec: IpfsCommandSpec;
  /** Path segments after the command (Kubo takes them as the first argument: `cat/<cid>`). */
  readonly pathArg: string | undefined;
}

/**
 * Finds the command of a path under `/api/v0/` (e.g. `object/get`, or `cat/Qm…` with a
 * trailing argument), longest name first; undefined for an unknown command.
 *
 * @example
 * resolveIpfsCommand('cat/QmZULk…') // { name: 'cat', pathArg: 'QmZULk…', … }
 */
export function resolveIpfsCommand(path: string): ResolvedIpfsCommand | undefined {
  const segments = path.split('/');
  for (let n = Math.min(4, segments.length); n >= 1; n--) {
    const name = segments.slice(0, n).join('/');
    if (isIpfsCommandName(name)) {
      const rest = segments.slice(n).join('/');
      return { name, spec: ipfsCommands[name], pathArg: rest === '' ? undefined : decodeSegment(rest) };
    }
  }
  return undefined;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
