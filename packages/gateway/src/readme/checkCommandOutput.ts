import type { ShellCommand } from './parseShellBlock.js';

/** Answers that mean "nothing there" unless the README says so. */
const EMPTY_RESULTS = ['"result":null', '"result":"0x0"', '"result":[]'];

/**
 * Whether a README command did what the README says: it exited with 0, printed no JSON-RPC error
 * (`"error":{`) nor Kubo error (`"Type":"error"`) and no null, zero or empty `result`, unless its
 * `# →` expectations show one, and printed each expectation, in order (`…` matches anything).
 * Returns what went wrong, or undefined.
 *
 * @example
 * checkCommandOutput({ text: 'rpc eth_chainId', line: 3, expect: ['"result":"0x7a69"'] }, '{"result":"0x7a69"}', 0); // undefined
 */
export function checkCommandOutput(command: ShellCommand, output: string, status: number): string | undefined {
  if (status !== 0) return `exited with ${status}`;
  const expected = command.expect.join('…');
  if (output.includes('"error":{') && !expected.includes('"error"')) return 'printed a JSON-RPC error';
  if (output.includes('"Type":"error"') && !expected.includes('"Type":"error"')) return 'printed an IPFS (Kubo) error';
  for (const empty of EMPTY_RESULTS) {
    if (output.includes(empty) && !expected.includes(empty)) return `printed ${empty} where the README expects a value`;
  }
  let at = 0;
  for (const part of expected.split('…')) {
    const found = output.indexOf(part, at);
    if (found < 0) return `does not print what the README says (${JSON.stringify(part)} not found after offset ${at})`;
    at = found + part.length;
  }
  return undefined;
}
