/** One entry of a generated directory listing. */
export interface ListingEntry {
  readonly name: string;
  readonly cid: string;
  /** The entry's DAG size (its link's Tsize), when known. */
  readonly size: number | undefined;
}

/** Bumped whenever the generated HTML changes: it is part of the listing's ETag (cache busting). */
export const LISTING_VERSION = 'ng1';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function formatSize(n: number | undefined): string {
  if (n === undefined) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/**
 * The HTML a gateway generates for a UnixFS directory without `index.html`: its content path,
 * a parent link (below the root), one row per entry (a relative link, the entry's CID, its DAG
 * size), links to the directory as CAR and DAG-JSON, and a note when the listing was cut. Every
 * name and CID is HTML-escaped and every link percent-encoded: a file named `<script>` shows as
 * text. No script, no external resource.
 *
 * @example
 * renderDirectoryListing({ contentPath: '/ipfs/bafy…/docs/', entries, atRoot: false, truncated: false });
 */
export function renderDirectoryListing(input: {
  contentPath: string;
  cid: string;
  entries: readonly ListingEntry[];
  atRoot: boolean;
  truncated: boolean;
}): string {
  const title = escapeHtml(decodeURIComponentSafe(input.contentPath));
  const rows = input.entries
    .map(
      (e) =>
        `<tr><td><a href="${escapeHtml(encodeURIComponent(e.name))}">${escapeHtml(e.name)}</a></td>` +
        `<td><code>${escapeHtml(e.cid)}</code></td><td class="n">${escapeHtml(formatSize(e.size))}</td></tr>`,
    )
    .join('\n');
  const parent = input.atRoot ? '' : '<tr><td><a href="../">..</a></td><td></td><td></td></tr>\n';
  const cut = input.truncated
    ? `<p>Only the first ${input.entries.length} entries are listed; <a href="?format=car&amp;dag-scope=entity">the directory as CAR</a> holds every one.</p>`
    : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Index of ${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td{padding:.2rem 1rem .2rem 0}td.n{text-align:right;white-space:nowrap}code{font-size:.8rem;color:#555}</style>
</head><body>
<h1>Index of ${title}</h1>
<p><code>${escapeHtml(input.cid)}</code> · <a href="?format=car">CAR</a> · <a href="?format=dag-json">DAG-JSON</a></p>
<table>
${parent}${rows}
</table>
${cut}</body></html>
`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
