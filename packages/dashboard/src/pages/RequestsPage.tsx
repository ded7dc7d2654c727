import { Anchor, Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { ErrorNote } from '../components/ErrorNote';
import { dateTime, errorCodeLabel } from '../format';
import { useApp } from '../session';
import type { RequestRow } from '../types';
import { useAsync } from '../useAsync';
import { REFUSALS, RequestDetail } from './RequestDetail';

const STATUSES = ['200', '400', '401', '403', '404', '408', '413', '429', '500', '502', '503', '504'];
/** The recent requests of one key, newest first, with why a request was refused. */
export function RequestsPage({ initialKey }: { initialKey: string | undefined }) {
  const { account } = useApp();
  const accountId = account!.id;
  const { data: keys } = useAsync(() => api.keys(accountId), [accountId]);
  const [picked, setPicked] = useState<string | undefined>(initialKey);
  const key = picked ?? keys?.find((k) => k.revokedAt === null)?.key ?? keys?.[0]?.key;
  const [methodText, setMethodText] = useState('');
  const [statusText, setStatusText] = useState<string | null>(null);
  const [opened, setOpened] = useState<RequestRow | null>(null);
  const [filter, setFilter] = useState<{ method: string; status: number | undefined }>({
    method: '',
    status: undefined,
  });
  const { data, error, loading, reload } = useAsync(
    async () => (key ? api.requests(key, { limit: 200, method: filter.method, status: filter.status }) : []),
    [key, filter.method, filter.status],
  );
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ method: methodText.trim(), status: statusText ? Number(statusText) : undefined });
  };

  return (
    <Stack>
      <Title order={2}>Request explorer</Title>
      <Text size="sm" c="dimmed">
        The latest requests of a key (up to 200), newest first, refused ones included. Open a row to see all the
        explorer keeps of it.
      </Text>
      <form onSubmit={apply} aria-label="Filter requests">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="API key"
            w={260}
            data={(keys ?? []).map((k) => ({
              value: k.key,
              label: `${k.name || '(unnamed)'} · ${k.key.slice(0, 8)}…${k.revokedAt ? ' (revoked)' : ''}`,
            }))}
            value={key ?? null}
            onChange={(v) => v && setPicked(v)}
            allowDeselect={false}
            data-testid="requests-key"
          />
          <TextInput
            label="Method"
            placeholder="eth_call"
            w={180}
            value={methodText}
            onChange={(e) => setMethodText(e.currentTarget.value)}
            data-testid="filter-method"
          />
          <Select
            label="HTTP status"
            placeholder="Any"
            w={120}
            data={STATUSES}
            value={statusText}
            onChange={setStatusText}
            clearable
            data-testid="filter-status"
          />
          <Button type="submit">Filter</Button>
          <Button variant="subtle" onClick={reload} loading={loading}>
            Refresh
          </Button>
        </Group>
      </form>
      <ErrorNote error={error} />
      {data && data.length === 0 && !loading && <Text c="dimmed">No requests match.</Text>}
      {data && data.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Recent requests" data-testid="requests-table" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Time</Table.Th>
                <Table.Th scope="col">Network</Table.Th>
                <Table.Th scope="col">Method</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Refusal</Table.Th>
                <Table.Th scope="col">Latency</Table.Th>
                <Table.Th scope="col">Credits</Table.Th>
                <Table.Th scope="col">Upstream</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((r, i) => (
                <Table.Tr
                  // biome-ignore lint/suspicious/noArrayIndexKey: the calls of a batch share their request id
                  key={`${r.requestId}/${i}`}
                  data-method={r.method}
                  data-status={r.status}
                  data-transport={r.transport}
                  data-request-id={r.requestId}
                  onClick={() => setOpened(r)}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor
                      component="button"
                      type="button"
                      fz="sm"
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpened(r);
                      }}
                      aria-label={`Open the request of ${dateTime(r.at)}: ${r.method}`}
                      data-testid="open-request"
                    >
                      {dateTime(r.at)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.network}</Table.Td>
                  <Table.Td ff="monospace">
                    {r.method}
                    {r.transport !== 'http' && (
                      <Badge size="xs" ml={4} variant="light">
                        {r.transport}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={r.status < 400 ? 'teal' : r.status < 500 ? 'orange' : 'red'}
                      variant="light"
                      data-testid="status"
                    >
                      {r.status}
                      {r.errorCode !== null ? ` · ${errorCodeLabel(r.errorCode, r.transport)}` : ''}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-testid="refusal">
                    {r.refusal ? (
                      <span title={REFUSALS[r.refusal] ?? r.refusal}>
                        {r.refusal}
                        <Text span size="xs" c="dimmed">
                          {' '}
                          ({REFUSALS[r.refusal] ?? 'refused'})
                        </Text>
                      </span>
                    ) : (
                      '–'
                    )}
                  </Table.Td>
                  <Table.Td>{r.latencyMs.toFixed(1)} ms</Table.Td>
                  <Table.Td>{r.credits}</Table.Td>
                  <Table.Td>{r.upstream ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {key && <RequestDetail apiKey={key} row={opened} onClose={() => setOpened(null)} />}
    </Stack>
  );
}
