/** An HTTP/1.1 token: what a header name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Anything but a tab or visible ASCII: what a value sent in a hand-written head may not hold. */
const NOT_VISIBLE_ASCII = /[^\t\x20-\x7e]/;

/** What is wrong with a header field, and in which of its parts. */
export interface HeaderFieldProblem {
  readonly part: 'name' | 'value';
  readonly message: string;
}

/**
 * What is wrong with a header nodegate writes to an upstream (a name that is not a token, a
 * value with a line break or a byte outside visible ASCII), or undefined when it may be sent.
 * One rule for the config's check and the JSON poster's hand-written head.
 *
 * @example
 * headerFieldProblem('x-api-key', 'a\r\nx-evil: 1'); // { part: 'value', message: 'must be visible ASCII (no line breaks)' }
 */
export function headerFieldProblem(name: string, value: string): HeaderFieldProblem | undefined {
  if (!TOKEN.test(name)) return { part: 'name', message: `${JSON.stringify(name)} is not a header name` };
  if (NOT_VISIBLE_ASCII.test(value)) return { part: 'value', message: 'must be visible ASCII (no line breaks)' };
  return undefined;
}
