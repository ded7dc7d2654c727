import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import {
  Button,
  Card,
  Group,
  Loader,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api, type UsageScope } from '../api';
import { ErrorNote } from '../components/ErrorNote';
import { bytes, errorCodeLabel, num, startOfUtcDay } from '../format';
import type { Bucket, Usage } from '../types';
import { useAsync } from '../useAsync';

// The usage charts (their own chunk: the charting library loads only when a chart is shown).

const RANGES = [
  { value: '15m', label: '15 min', ms: 15 * 60_000, bucket: '1m' },
  { value: '1h', label: '1 h', ms: 3600_000, bucket: '1m' },
  { value: '24h', label: '24 h', ms: 24 * 3600_000, bucket: '15m' },
  { value: '7d', label: '7 d', ms: 7 * 24 * 3600_000, bucket: '1h' },
  { value: '30d', label: '30 d', ms: 30 * 24 * 3600_000, bucket: '1d' },
] as const satisfies readonly { value: string; label: string; ms: number; bucket: Bucket }[];
const BUCKET_MS: Record<Bucket, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3600_000,
  '1d': 86_400_000,
};
const COLORS = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'red.6', 'lime.7', 'pink.6'];

function label(ms: number, bucket: Bucket): string {
  const d = new Date(ms);
  if (bucket === '1d') return d.toLocaleDateString('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });
  if (bucket === '1h')
    return d.toLocaleString('en-GB', { day: '2-digit', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
}

/** One row per bucket (empty buckets filled with 0), one column per network, plus credits and bytes. */
function pivot(usage: Usage, fromMs: number, toMs: number) {
  const step = BUCKET_MS[usage.bucket];
  const networks = [...new Set(usage.series.map((p) => p.network ?? 'all'))].sort();
  const rows = new Map<number, Record<string, number | string>>();
  for (let t = Math.floor(fromMs / step) * step; t <= toMs; t += step) {
    const row: Record<string, number | string> = { at: label(t, usage.bucket), credits: 0, bytesIn: 0, bytesOut: 0 };
    for (const n of networks) row[n] = 0;
    rows.set(t, row);
  }
  for (const p of usage.series) {
    const t = Math.floor(Date.parse(p.at) / step) * step;
    let row = rows.get(t);
    if (!row) {
      row = { at: label(t, usage.bucket), credits: 0, bytesIn: 0, bytesOut: 0 };
      for (const n of networks) row[n] = 0;
      rows.set(t, row);
    }
    const n = p.network ?? 'all';
    row[n] = Number(row[n] ?? 0) + p.requests;
    row.credits = Number(row.credits) + p.credits;
    row.bytesIn = Number(row.bytesIn) + p.bytesIn;
    row.bytesOut = Number(row.bytesOut) + p.bytesOut;
  }
  return { networks, rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r) };
}

/** IPFS stored bytes against the quota: a key's own, or an account's keys together. */
interface StorageView {
  storedBytes: number;
  /** The key's quota, or the account's keys' quotas added up; null without IPFS. */
  maxStoredBytes: number | null;
  /** The quota of each key (ipfs.maxStoredBytesPerKey). */
  perKey: number | null;
  /** The account's active keys (null for one key). */
  activeKeys: number | null;
}

/** What the quota figure means: it is per key, and an account's is the keys' quotas added up. */
function quotaNote(s: StorageView): string | null {
  if (s.perKey === null) return null;
  const each = bytes(s.perKey);
  if (s.activeKeys === null) {
    return `${each} is this key's own quota (every key has one of ${each}); past it, its uploads and pins are refused (413).`;
  }
  return (
    `${s.activeKeys} active key${s.activeKeys === 1 ? '' : 's'} × ${each} per key. The quota is per key: each key is ` +
    `refused (413) past its own ${each}, whatever the others store; the account has no quota of its own.`
  );
}

async function load(
  scope: { key?: string; account?: string },
  range: (typeof RANGES)[number],
  dailyLimit: number | null,
) {
  const to = Date.now() + 1000;
  const s: UsageScope = { ...scope, from: to - range.ms, to };
  const today: UsageScope = { ...scope, from: startOfUtcDay(), to };
  // the quota is per key (ipfs.maxStoredBytesPerKey); an account's figure is that times its active keys
  const storageOf = async (): Promise<StorageView> => {
    if (scope.key) {
      const s = await api.storage(scope.key);
      return {
        storedBytes: s.storedBytes,
        maxStoredBytes: s.maxStoredBytes,
        perKey: s.maxStoredBytes,
        activeKeys: null,
      };
    }
    const s = await api.accountStorage(scope.account!);
    return {
      storedBytes: s.storedBytes,
      maxStoredBytes: s.maxStoredBytes,
      perKey: s.maxStoredBytesPerKey,
      activeKeys: s.activeKeys,
    };
  };
  const limitOf = async () => {
    if (dailyLimit !== null) return dailyLimit;
    if (scope.account) return (await api.plan(scope.account)).plan.creditsPerDay;
    const k = await api.key(scope.key!);
    return (
      k.settings.creditsPerDay ?? (await api.plans()).find((p) => p.name === k.effectivePlan)?.creditsPerDay ?? null
    );
  };
  const [usage, top, errors, todayUsage, storage, limit] = await Promise.all([
    api.usage(s, range.bucket, true),
    api.topMethods(s, 10),
    api.errors(s),
    api.usage(today, '1d', false),
    storageOf().catch(() => null),
    limitOf().catch(() => null),
  ]);
  return { usage, top, errors, usedToday: todayUsage.totals.credits, storage, limit, ...pivot(usage, s.from, s.to) };
}

/** Usage charts for one key or one account, over 15 min to 30 days. */
export default function UsagePanel({
  scope,
  dailyLimit = null,
}: {
  scope: { key?: string; account?: string };
  dailyLimit?: number | null;
}) {
  const [rangeId, setRangeId] = useState<string>('1h');
  const range = RANGES.find((r) => r.value === rangeId) ?? RANGES[1];
  const { data, error, loading, reload } = useAsync(
    () => load(scope, range, dailyLimit),
    [scope.key, scope.account, range.value, dailyLimit],
  );
  return (
    <Stack data-testid="usage-panel">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          aria-label="Time range"
          data={RANGES.map((r) => ({ value: r.value, label: r.label }))}
          value={range.value}
          onChange={setRangeId}
        />
        <Group gap="xs">
          {loading && <Loader size="xs" aria-label="Loading usage" />}
          <Button size="xs" variant="subtle" onClick={reload}>
            Refresh
          </Button>
        </Group>
      </Group>
      <ErrorNote error={error} />
      {data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Stat label="Requests" value={num(data.usage.totals.requests)} testId="usage-total-requests" />
            <Stat label="Credits" value={num(data.usage.totals.credits)} testId="usage-total-credits" />
            <Stat label="Errors" value={num(data.usage.totals.errors)} testId="usage-total-errors" />
            <Stat
              label="Avg latency"
              value={`${data.usage.totals.latencyMsAvg.toFixed(1)} ms`}
              testId="usage-latency"
            />
          </SimpleGrid>

          <Card withBorder>
            <Title order={4} mb="xs">
              Requests by network
            </Title>
            <AreaChart
              h={220}
              data={data.rows}
              dataKey="at"
              type="stacked"
              series={data.networks.map((n, i) => ({ name: n, color: COLORS[i % COLORS.length]! }))}
              withLegend
              curveType="monotone"
              withDots={false}
              aria-label="Requests by network over time"
              data-testid="chart-requests"
            />
          </Card>

          <Card withBorder>
            <Title order={4} mb="xs">
              Credits
            </Title>
            <Text size="sm" mb={4} data-testid="credits-today">
              Today (UTC): {num(data.usedToday)}
              {data.limit !== null ? ` of ${num(data.limit)} daily credits` : ' credits'}
            </Text>
            {data.limit !== null && (
              <Progress
                value={Math.min(100, (data.usedToday / Math.max(1, data.limit)) * 100)}
                aria-label="Daily credits used"
                mb="sm"
              />
            )}
            <BarChart
              h={180}
              data={data.rows}
              dataKey="at"
              series={[{ name: 'credits', color: 'violet.6' }]}
              aria-label="Credits used over time"
            />
          </Card>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder>
              <Title order={4} mb="xs">
                Top methods
              </Title>
              {data.top.length === 0 ? (
                <Text c="dimmed" size="sm">
                  No requests in this range.
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={300}>
                  <Table aria-label="Top methods" data-testid="top-methods">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">Method</Table.Th>
                        <Table.Th scope="col">Network</Table.Th>
                        <Table.Th scope="col">Requests</Table.Th>
                        <Table.Th scope="col">Credits</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.top.map((m) => (
                        <Table.Tr key={`${m.network}/${m.method}`}>
                          <Table.Td ff="monospace" fz="sm">
                            {m.method}
                          </Table.Td>
                          <Table.Td>{m.network}</Table.Td>
                          <Table.Td>{num(m.requests)}</Table.Td>
                          <Table.Td>{num(m.credits)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Card>
            <Card withBorder>
              <Title order={4} mb="xs">
                Errors by status
              </Title>
              {data.errors.length === 0 ? (
                <Text c="dimmed" size="sm">
                  No answers in this range.
                </Text>
              ) : (
                <BarChart
                  h={200}
                  data={data.errors.map((e) => ({
                    status: e.errorCode === null ? String(e.status) : `${e.status} / ${errorCodeLabel(e.errorCode)}`,
                    count: e.count,
                  }))}
                  dataKey="status"
                  series={[{ name: 'count', color: 'red.6' }]}
                  aria-label="Answers by HTTP status and JSON-RPC error code"
                />
              )}
            </Card>
          </SimpleGrid>

          <Card withBorder>
            <Title order={4} mb="xs">
              IPFS storage and bandwidth
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
              <Stat
                label="Stored (pinned)"
                value={
                  data.storage
                    ? `${bytes(data.storage.storedBytes)}${data.storage.maxStoredBytes !== null ? ` of ${bytes(data.storage.maxStoredBytes)}` : ''}`
                    : '–'
                }
                testId="ipfs-stored"
              />
              <Stat label="Bytes in" value={bytes(data.usage.totals.bytesIn)} testId="bytes-in" />
              <Stat label="Bytes out" value={bytes(data.usage.totals.bytesOut)} testId="bytes-out" />
            </SimpleGrid>
            {data.storage && quotaNote(data.storage) && (
              <Text size="xs" c="dimmed" mb="sm" data-testid="ipfs-quota-note">
                {quotaNote(data.storage)}
              </Text>
            )}
            <AreaChart
              h={160}
              data={data.rows}
              dataKey="at"
              series={[
                { name: 'bytesIn', label: 'Bytes in', color: 'blue.6' },
                { name: 'bytesOut', label: 'Bytes out', color: 'green.6' },
              ]}
              withLegend
              withDots={false}
              valueFormatter={(v) => bytes(v)}
              aria-label="IPFS bandwidth over time"
            />
          </Card>
        </>
      )}
    </Stack>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}
