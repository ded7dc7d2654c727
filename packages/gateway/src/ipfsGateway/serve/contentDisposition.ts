/**
 * A `Content-Disposition` value (`inline` or `attachment`) with a file name in both forms the path
 * gateway spec asks for: `filename="…"` with every non-ASCII (and `"`, `\`, control) character as
 * `_`, and `filename*=UTF-8''…` percent-encoded when the name is not plain ASCII.
 *
 * @example
 * contentDisposition('inline', 'testтест.pdf') // `inline; filename="test____.pdf"; filename*=UTF-8''test%D1%82%D0%B5%D1%81%D1%82.pdf`
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string | undefined): string {
  if (filename === undefined || filename === '') return kind;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  if (ascii === filename) return `${kind}; filename="${ascii}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
