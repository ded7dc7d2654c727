/** One sample of a Prometheus text exposition. */
export interface MetricSample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/**
 * The samples of a Prometheus text exposition (comments and blank lines skipped; any other line
 * that is not a sample throws).
 *
 * @example
 * const samples = parseMetrics(await (await fetch(metricsUrl)).text());
 * metricValue(samples, 'nodegate_upstream_breaker_state', { upstream: 'first' }); // 0
 */
export function parseMetrics(text: string): MetricSample[] {
  const out: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const matching = (samples: readonly MetricSample[], name: string, labels: Record<string, string>) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** The value of the one sample of `name` whose labels include `labels` (throws unless there is exactly one). */
export function metricValue(samples: readonly MetricSample[], name: string, labels: Record<string, string>): number {
  const found = matching(samples, name, labels);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

/** The sum of every sample of `name` whose labels include `labels`. */
export function metricSum(samples: readonly MetricSample[], name: string, labels: Record<string, string> = {}): number {
  return matching(samples, name, labels).reduce((total, s) => total + s.value, 0);
}
