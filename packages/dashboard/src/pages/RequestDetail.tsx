import { Badge, Drawer, Loader, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError, api } from '../api';
import { CopyField } from '../components/CopyField';
import { ErrorNote } from '../components/ErrorNote';
import { bytes, dateTime, errorCodeLabel, num } from '../format';
import type { RequestRow } from '../types';
import { useAsync } from '../useAsync';

/** What each refusal rule means (the gateway's `refusal` names). */
export const REFUSALS: Record<string, string> = {
  origin: 'origin not in the allowlist',
  'user-agent': 'user agent not in the allowlist',
  method: 'method not in the allowlist',
  contract: 'contract not in the allowlist',
  rate: 'over the credits per second',
  daily: 'over the daily credits',
  concurrency: 'too many requests in flight',
  secret: 'missing or wrong secret',
  jwt: 'missing or invalid JWT',
};

const TRANSPORTS: Record<string, string> = {
  http: 'HTTP (JSON-RPC)',
  ws: 'WebSocket (JSON-RPC)',
  ipfs: 'IPFS (Kubo RPC)',
};

function errorCodeText(r: RequestRow): string {
  if (r.errorCode === null) return 'none';
  if (r.transport === 'ipfs')
    return `${errorCodeLabel(r.errorCode, r.transport)}: HTTP ${r.status} (Kubo answers carry no JSON-RPC code)`;
  return `${r.errorCode} (JSON-RPC)`;
}

/** Every fact the request explorer keeps of one call, as label/value rows. */
function facts(r: RequestRow): [string, ReactNode][] {
  return [
    ['Time', dateTime(r.at)],
    ['Network', r.network],
    ['Transport', TRANSPORTS[r.transport] ?? r.transport],
    [
      'Method',
      <Text key="m" span ff="monospace" fz="sm">
        {r.method}
      </Text>,
    ],
    ['Params digest', 'not kept: the explorer stores no params, nor a digest of them'],
    ['HTTP status', String(r.status)],
    ['Error code', errorCodeText(r)],
    ['Error message', r.errorCode === null ? 'none' : 'not kept: the client got it in the answer'],
    ['Refusal', r.refusal ? `${r.refusal} (${REFUSALS[r.refusal] ?? 'refused'})` : 'none'],
    ['Upstream', r.upstream ?? 'none (answered by the gateway: refused, invalid, or from its cache)'],
    ['Failover', r.failover === 'partner' ? 'a failover partner answered' : 'no'],
    ['Latency', `${r.latencyMs.toFixed(1)} ms`],
    ['Credits', num(r.credits)],
    ['Bytes in / out', `${bytes(r.bytesIn)} / ${bytes(r.bytesOut)}`],
  ];
}

function Facts({ row }: { row: RequestRow }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4} fz="sm" data-testid="request-facts">
      <Table.Tbody>
        {facts(row).map(([label, value]) => (
          <Table.Tr key={label} data-fact={label}>
            <Table.Th scope="row" w={140} fw={500} c="dimmed" style={{ verticalAlign: 'top' }}>
              {label}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * One request of the explorer, opened: what the explorer keeps of it (every call of a batch),
 * read again from `GET /keys/{key}/requests/{requestId}`; the row clicked shows at once.
 */
export function RequestDetail({
  apiKey,
  row,
  onClose,
}: {
  apiKey: string;
  row: RequestRow | null;
  onClose: () => void;
}) {
  const { data, error, loading } = useAsync(
    async () => (row ? api.request(apiKey, row.requestId) : undefined),
    [apiKey, row?.requestId],
  );
  const calls = data && row && data.requestId === row.requestId ? data.calls : row ? [row] : [];
  return (
    <Drawer
      opened={row !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={<Title order={3}>Request</Title>}
      data-testid="request-detail"
    >
      {row && (
        <Stack>
          <CopyField label="Request id" value={row.requestId} testId="request-id" />
          {loading && <Loader size="xs" aria-label="Loading the request" />}
          {error instanceof ApiError && error.status === 404 ? (
            <Text size="sm" c="dimmed">
              The log no longer holds this request (it keeps the newest per key): this is what the list showed.
            </Text>
          ) : (
            <ErrorNote error={error} />
          )}
          {calls.length > 1 && (
            <Text size="sm">
              A batch of {calls.length} calls (one request id, one row per call; bytes are each call's share).
            </Text>
          )}
          {calls.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the calls of a batch share their request id
            <Stack key={i} gap={4}>
              {calls.length > 1 && (
                <Badge variant="light" style={{ alignSelf: 'flex-start' }}>
                  Call {i + 1}
                </Badge>
              )}
              <Facts row={c} />
            </Stack>
          ))}
        </Stack>
      )}
    </Drawer>
  );
}
