import type { UpstreamStats } from '../../upstream/createUpstreamStats.js';
import type { NetworkHeads } from '../heads/createHeads.js';
import { describeWindow } from '../layers/availability/describeWindow.js';
import type { Member } from '../members/createMember.js';
import type { ClassHealth, UpstreamHealth } from '../types.js';
import { PROBE_CLASS } from './createProbe.js';

const classHealth = (s: UpstreamStats, lag: number): ClassHealth => {
  const h: ClassHealth = {
    score: Math.round(s.score(lag) * 100) / 100,
    errorRate: Math.round(s.errorRate() * 1000) / 1000,
    samples: s.samples(),
  };
  const ewma = s.ewmaMs();
  if (ewma !== undefined) h.latencyMs = Math.round(ewma * 100) / 100;
  const p95 = s.p95Ms();
  if (p95 !== undefined) h.p95Ms = Math.round(p95 * 100) / 100;
  return h;
};

/**
 * What /health and /metrics show of one upstream: its breaker, head and lag, scores per method
 * class (the light class, the probe's, at the top level), what it lacks, what it said it is and
 * its budget (configured and in force, spent and throttled counts), the blocks it serves state
 * for, and whether it sits out after losing consensus disputes.
 * Reads state only: nothing is sent upstream.
 *
 * @example
 * const health = [...primaries, ...partners].map((m) => snapshotMember(m, heads, Date.now()));
 */
export function snapshotMember(m: Member, heads: Pick<NetworkHeads, 'live'>, now: number): UpstreamHealth {
  const classes = {
    light: classHealth(m.stats.light, m.lag),
    heavy: classHealth(m.stats.heavy, m.lag),
    write: classHealth(m.stats.write, m.lag),
  };
  const light = classes[PROBE_CLASS];
  const h: UpstreamHealth = {
    name: m.upstream.name,
    role: m.role,
    healthy: heads.live(m) && !m.wrongChain,
    breaker: m.breaker.state(),
    consecutiveFailures: m.consecutiveFailures,
    errorRate: light.errorRate,
    lag: m.lag,
    score: light.score,
    classes,
    lacks: m.caps.lacked(now),
  };
  if (light.latencyMs !== undefined) h.latencyMs = light.latencyMs;
  if (light.p95Ms !== undefined) h.p95Ms = light.p95Ms;
  if (m.head !== undefined) h.head = m.head;
  if (m.chainId !== undefined) h.chainId = m.chainId;
  if (m.clientVersion !== undefined) h.clientVersion = m.clientVersion;
  if (m.wrongChain) h.wrongChain = true;
  if (m.specVersion !== undefined) h.specVersion = m.specVersion;
  if (m.lastProbeAt !== undefined) h.lastProbeAt = new Date(m.lastProbeAt).toISOString();
  if (m.lastFailure !== undefined) h.lastFailure = m.lastFailure;
  if (m.lastProbeMs !== undefined) h.lastLatencyMs = m.lastProbeMs;
  if (m.budget !== undefined) h.budget = m.budget.health(now);
  h.blocks = describeWindow(m);
  if (m.sitOutUntil !== undefined && m.sitOutUntil > now)
    h.sittingOut = { until: new Date(m.sitOutUntil).toISOString(), disputesLost: m.disputesLost };
  return h;
}
