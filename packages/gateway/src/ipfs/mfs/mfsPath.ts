import { mfsError } from './mfsError.js';

/** An MFS path as Kubo's `checkPath` leaves it: absolute, cleaned, with its trailing slash kept. */
export interface MfsPath {
  /** The cleaned path (`/a/b`, `/a/b/` when the argument ended in a slash, `/` for the root). */
  readonly path: string;
  /** Its names (`['a', 'b']`; none for the root). */
  readonly parts: readonly string[];
  /** The argument ended in a slash (`cp`, `mv`: the destination is a directory to put into). */
  readonly trailingSlash: boolean;
}

/** Go's `path.Clean` for an absolute path: no empty, `.` or `..` names (`..` stops at the root). */
function clean(p: string): string[] {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out;
}

/**
 * Reads an MFS path argument as Kubo does: it must not be empty and must start with `/`
 * (Kubo's messages otherwise), then it is cleaned (`//a/./b/../c` is `/a/c`).
 *
 * @example
 * checkPath('/a//b/') // { path: '/a/b/', parts: ['a', 'b'], trailingSlash: true }
 */
export function checkPath(p: string): MfsPath {
  if (p.length === 0) throw mfsError('paths must not be empty');
  if (!p.startsWith('/')) throw mfsError('paths must start with a leading slash');
  const parts = clean(p);
  const trailingSlash = p.endsWith('/') && parts.length > 0;
  const path = `/${parts.join('/')}${trailingSlash ? '/' : ''}`;
  return { path, parts, trailingSlash };
}

/** `/a/b/c` as its parent's names and its own name (`['a', 'b']`, `'c'`); the root has none. */
export function splitParent(p: MfsPath): { dir: readonly string[]; name: string | undefined } {
  return { dir: p.parts.slice(0, -1), name: p.parts.at(-1) };
}
