/**
 * Whether a README's sample of the startup output matches what the gateway printed: each sample
 * line (not empty) must match a printed line, in the sample's order, where `…` matches anything
 * and a 32-digit hex value (a key, a secret) matches any other. Returns the first sample line not
 * found, or undefined.
 *
 * @example
 * matchStartupSample('nodegate: listening on http://127.0.0.1:8550', printed); // undefined when printed has that line
 */
export function matchStartupSample(sample: string, printed: string): string | undefined {
  const lines = printed.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of sample.split('\n').map((l) => l.trimEnd())) {
    if (want.trim() === '') continue;
    const pattern = new RegExp(
      `^${want
        .split(/(…|\b[0-9a-f]{32}\b)/)
        .map((part) => (part === '…' ? '.*' : /^[0-9a-f]{32}$/.test(part) ? '[0-9a-f]{32}' : escapeRegExp(part)))
        .join('')}$`,
    );
    const found = lines.findIndex((l, i) => i >= at && pattern.test(l));
    if (found < 0) return want;
    at = found + 1;
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
