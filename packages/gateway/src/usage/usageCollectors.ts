import type { CollectorSpec } from '../metrics/createGatewayMetrics.js';
import type { UsageRecorderHealth } from './createUsageRecorder.js';

/**
 * The usage recorder's state as metrics, read at scrape time from `health()` (no labels):
 *
 * - `nodegate_usage_flush_consecutive_failures`: flushes failed in a row (0 once one succeeds)
 * - `nodegate_usage_pending_rows`: rows waiting for the next flush
 * - `nodegate_usage_rows_set_aside_total`: rows the database refused, set aside (dead-letter table)
 * - `nodegate_usage_last_flush_success_timestamp_seconds`: when a flush last succeeded
 * - `nodegate_usage_flushes_total`, `nodegate_usage_flush_seconds_total`: flushes that wrote
 *   something, and the time they took together (their average over a range: the ratio of the two
 *   rates); `nodegate_usage_last_flush_seconds`: the last one's
 *
 * (`nodegate_usage_flush_failures_total` counts every failed flush.)
 *
 * @example
 * for (const c of usageCollectors(() => recorder.health())) metrics.addCollector(c);
 */
export function usageCollectors(health: () => UsageRecorderHealth): CollectorSpec[] {
  return [
    {
      name: 'nodegate_usage_flush_consecutive_failures',
      help: 'Usage flushes that failed in a row (0 once one succeeds); usage waits in memory meanwhile',
      type: 'gauge',
      collect: () => [{ value: health().consecutiveFailures }],
    },
    {
      name: 'nodegate_usage_pending_rows',
      help: 'Usage rows (aggregates, error counts, requests) waiting for the next flush',
      type: 'gauge',
      collect: () => [{ value: health().pendingRows }],
    },
    {
      name: 'nodegate_usage_rows_set_aside_total',
      help: 'Usage rows the database refused, set aside in the usage_dead_letter table',
      type: 'counter',
      collect: () => [{ value: health().setAsideRows }],
    },
    {
      name: 'nodegate_usage_flushes_total',
      help: 'Usage flushes that wrote something',
      type: 'counter',
      collect: () => [{ value: health().flushes }],
    },
    {
      name: 'nodegate_usage_flush_seconds_total',
      help: 'Time the usage flushes that wrote something took together (wall clock; the database works off the event loop)',
      type: 'counter',
      collect: () => [{ value: health().flushMsTotal / 1000 }],
    },
    {
      name: 'nodegate_usage_last_flush_seconds',
      help: 'How long the last usage flush that wrote something took (wall clock)',
      type: 'gauge',
      collect: () => {
        const ms = health().lastFlushMs;
        return ms === null ? [] : [{ value: ms / 1000 }];
      },
    },
    {
      name: 'nodegate_usage_last_flush_success_timestamp_seconds',
      help: 'When a usage flush last succeeded (Unix time)',
      type: 'gauge',
      collect: () => {
        const at = health().lastSuccessAt;
        return at === null ? [] : [{ value: Date.parse(at) / 1000 }];
      },
    },
  ];
}
