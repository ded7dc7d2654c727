import { summaryOf } from '../cli/printStartSummary.js';
import { describeCertificate } from '../edge/tls/describeCertificate.js';
import { type RunningGateway, startGateway } from '../main.js';
import type { InitMessage, MetricsPart } from './ClusterMessages.js';
import { connectPrimarySubscriptions } from './connectPrimarySubscriptions.js';
import { createPrimaryLink } from './createPrimaryLink.js';
import { createWorkerLogOutput } from './createWorkerLogOutput.js';
import { mergeMetricsParts } from './mergeMetricsParts.js';

// A worker of `nodegate start --workers N`: the primary forks this file (cluster), sends `init`
// with the frozen config and the embedded backends' URLs, and from then on tells it to stop or to
// reload its certificate. The worker serves on the port the cluster shares (the primary hands it
// connections in turn) and stops only when told (or when the primary is gone): a terminal's
// Ctrl-C reaches every process of the group, and the primary decides.

/** How long a gathered scrape waits for the primary's answer. */
const GATHER_TIMEOUT_MS = 5_000;

const link = createPrimaryLink(process);
const subscriptions = connectPrimarySubscriptions(link);
let gw: RunningGateway | undefined;
/** The worker's log output (its lines go to the primary); flushed before the worker exits. */
let output: ReturnType<typeof createWorkerLogOutput> | undefined;
let stopping = false;
let nextGather = 1;
const gathers = new Map<number, (parts: readonly MetricsPart[]) => void>();

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});

const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  // the access lines still batched go to the primary before the exit (the gateway does not
  // close an output it was given)
  const done = () => {
    const flushed = output?.close() ?? Promise.resolve();
    flushed.then(
      () => process.exit(code),
      () => process.exit(code),
    );
  };
  if (!gw) return done();
  gw.close().then(done, done);
};

link.on('init', (init: InitMessage) => {
  void start(init).catch((err: unknown) => {
    link.send({ t: 'failed', message: (err as Error).message });
    // the message first, then the exit
    setTimeout(() => process.exit(1), 50).unref();
  });
});
link.on('stop', () => stop(0));
// the primary is gone (killed): nothing will stop this worker but itself
process.on('disconnect', () => {
  subscriptions.primaryLost();
  stop(0);
});
link.on('tls-reload', (m) => {
  const reloader = gw?.tls;
  if (!reloader) return;
  void reloader.reload().then((r) =>
    link.send({
      t: 'tls-reloaded',
      ref: m.ref,
      ok: r.ok,
      certificate: describeCertificate(r.certificate),
      ...(r.ok ? {} : { error: r.error }),
    }),
  );
});
link.on('metrics-gathered', (m) => {
  gathers.get(m.ref)?.(m.parts);
  gathers.delete(m.ref);
});

async function start(init: InitMessage): Promise<void> {
  output = createWorkerLogOutput(link, {
    level: init.logLevel ?? init.config.log.level,
    format: init.logFormat,
    accessWhere: init.accessWhere,
  });
  let own: (() => Promise<MetricsPart['metrics']>) | undefined;
  link.on('metrics-collect', (m) => {
    const collect = own ?? (async () => []);
    void collect().then(
      (metrics) => link.send({ t: 'metrics-part', ref: m.ref, metrics }),
      () => link.send({ t: 'metrics-part', ref: m.ref, metrics: [] }),
    );
  });
  gw = await startGateway(init.config, {
    output,
    ...(init.logLevel ? { logLevel: init.logLevel } : {}),
    ...(init.first ? { progress: (line: string) => link.send({ t: 'progress', line }) } : {}),
    cluster: {
      id: init.id,
      count: init.count,
      first: init.first,
      backends: new Map(init.backends),
      subscriptions: (network) => subscriptions.connect(network),
      shareMetrics: (scrapeOwn) => {
        own = scrapeOwn;
      },
      scrapeMetrics: async () => {
        const ref = nextGather++;
        const parts = await new Promise<readonly MetricsPart[]>((resolve, reject) => {
          const timer = setTimeout(() => {
            gathers.delete(ref);
            reject(new Error('the primary process did not gather the metrics in time'));
          }, GATHER_TIMEOUT_MS);
          gathers.set(ref, (p) => {
            clearTimeout(timer);
            resolve(p);
          });
          if (!link.send({ t: 'metrics-gather', ref })) {
            clearTimeout(timer);
            gathers.delete(ref);
            reject(new Error('the primary process is gone'));
          }
        });
        return mergeMetricsParts(parts);
      },
    },
  });
  if (stopping) {
    await gw.close();
    return;
  }
  link.send({ t: 'ready', summary: summaryOf(gw) });
}
