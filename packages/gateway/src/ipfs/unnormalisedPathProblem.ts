/** Percent-encodings of `/`, `.` and `\` (any case): they would change the path once decoded. */
const ENCODED_SEPARATOR = /%(2f|2e|5c)/i;

/**
 * Why a request path (without its query) would read differently once a server normalises it,
 * or undefined when it is already normal: `.`/`..` segments, empty segments (`//`), a
 * percent-encoded `/`, `.` or `\`, or a backslash. The gateway decides on the path as it reads,
 * so such a path is refused rather than interpreted (`version/../block/rm` must not run
 * block/rm upstream).
 *
 * @example
 * unnormalisedPathProblem('/api/v0/version/../block/rm') // 'a "." or ".." segment'
 * unnormalisedPathProblem('/api/v0/cat/QmZULk…') // undefined
 */
export function unnormalisedPathProblem(path: string): string | undefined {
  if (path.includes('\\')) return 'a backslash';
  if (ENCODED_SEPARATOR.test(path)) return 'a percent-encoded "/", "." or "\\"';
  const segments = path.split('/');
  // a leading "/" gives one empty first segment; every other segment must be non-empty
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!;
    if (s === '.' || s === '..') return 'a "." or ".." segment';
    if (s === '') return 'an empty segment ("//" or a trailing "/")';
  }
  if (segments[0] !== '') return 'no leading "/"';
  return undefined;
}
