import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api } from '../api';
import { CopyField } from '../components/CopyField';
import { ErrorNote } from '../components/ErrorNote';
import { bytes, dateTime } from '../format';
import type { Gateway } from '../gatewayTypes';
import { useApp } from '../session';
import { useAsync } from '../useAsync';

/**
 * The account's dedicated IPFS gateways: each one's URLs (path form, host form, subdomain form),
 * its mode and allowed origins, its tokens (a new token shown once), and the account's gateway
 * bandwidth today against the plan's. Owners and admins change them; viewers read.
 */
export function GatewaysPage() {
  const { account, canEditKeys } = useApp();
  const accountId = account!.id;
  const { data, error, reload } = useAsync(() => api.gateways(accountId), [accountId]);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<unknown>(undefined);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loader aria-label="Loading the gateways" />;
  const first = data[0];
  const create = async () => {
    setProblem(undefined);
    try {
      await api.createGateway(accountId, name.trim());
      setName('');
      reload();
    } catch (e) {
      setProblem(e);
    }
  };
  return (
    <Stack>
      <Title order={2}>Dedicated IPFS gateways</Title>
      <Text c="dimmed" size="sm">
        What this account's keys pin, served to browsers without a key's secret: a restricted gateway serves only the
        account's pinned content (403 otherwise) until a token or an allowed origin opens it; an open one serves any CID
        the node has.
      </Text>
      {first && <Bandwidth gateway={first} />}
      {canEditKeys && (
        <Group align="flex-end">
          <TextInput
            label="New gateway"
            description="3 to 32 lower-case letters, digits and dashes: its host label and its path"
            placeholder="my-app"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-testid="gateway-name"
          />
          <Button onClick={() => void create()} disabled={name.trim() === ''}>
            Create gateway
          </Button>
        </Group>
      )}
      {problem !== undefined && <ErrorNote error={problem} />}
      {data.length === 0 && <Text>No gateway yet.</Text>}
      {data.map((g) => (
        <GatewayCard key={g.id} gateway={g} canEdit={canEditKeys} onChanged={reload} />
      ))}
    </Stack>
  );
}

/** The account's gateway bandwidth today (the same for each of its gateways). */
function Bandwidth({ gateway }: { gateway: Gateway }) {
  const { bandwidthToday: used, bandwidthPerDay: limit } = gateway;
  if (used === null) return null;
  return (
    <Card withBorder padding="sm">
      <Text size="sm" data-testid="gateway-bandwidth">
        Gateway bandwidth today (UTC): {bytes(used)}
        {limit === null ? '' : ` of ${bytes(limit)} (${((used / limit) * 100).toFixed(2)}%)`}
      </Text>
      {limit !== null && (
        <Progress mt={6} value={Math.min(100, (used / limit) * 100)} aria-label="Gateway bandwidth used today" />
      )}
      <Text size="xs" c="dimmed" mt={4}>
        All the account's gateways together; over the plan's bandwidth, requests get HTTP 429 until 00:00 UTC.
      </Text>
    </Card>
  );
}

function GatewayCard({
  gateway: g,
  canEdit,
  onChanged,
}: {
  gateway: Gateway;
  canEdit: boolean;
  onChanged: () => void;
}) {
  const tokens = useAsync(() => api.gatewayTokens(g.id), [g.id]);
  const [origins, setOrigins] = useState(g.allowedOrigins.join(', '));
  const [tokenName, setTokenName] = useState('');
  const [created, setCreated] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<unknown>(undefined);
  const act = async (fn: () => Promise<unknown>) => {
    setProblem(undefined);
    try {
      await fn();
    } catch (e) {
      setProblem(e);
    }
  };
  return (
    <Card withBorder data-testid={`gateway-${g.name}`}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {g.name}
        </Title>
        <Badge color={g.mode === 'open' ? 'orange' : 'blue'} variant="light">
          {g.mode}
        </Badge>
      </Group>
      <Stack gap="xs">
        <CopyField label="Path form (append /ipfs/<cid>)" value={g.urls.path} testId={`gateway-url-${g.name}`} />
        {g.urls.host && <CopyField label="Host form (append /ipfs/<cid>)" value={g.urls.host} />}
        {g.urls.subdomain && (
          <Text size="sm">
            Subdomain form (each site its own origin): <Code>{g.urls.subdomain}/</Code>
          </Text>
        )}
        {canEdit && (
          <>
            <Group align="flex-end">
              <SegmentedControl
                value={g.mode}
                data={[
                  { value: 'restricted', label: 'Restricted' },
                  { value: 'open', label: 'Open' },
                ]}
                onChange={(mode) =>
                  void act(async () => {
                    await api.updateGateway(g.id, { mode: mode as Gateway['mode'] });
                    onChanged();
                  })
                }
                aria-label={`Mode of ${g.name}`}
              />
            </Group>
            <Group align="flex-end">
              <TextInput
                label="Allowed origins"
                description="Pages of these origins may load anything through it (comma-separated: https://app.example.com, *.example.com)"
                value={origins}
                onChange={(e) => setOrigins(e.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button
                variant="light"
                onClick={() =>
                  void act(async () => {
                    const list = origins
                      .split(',')
                      .map((o) => o.trim())
                      .filter(Boolean);
                    await api.updateGateway(g.id, { allowedOrigins: list });
                    onChanged();
                  })
                }
              >
                Save origins
              </Button>
            </Group>
          </>
        )}
        <Title order={4} size="h5" mt="sm">
          Tokens
        </Title>
        {tokens.data && tokens.data.length > 0 ? (
          <Table>
            <Table.Tbody>
              {tokens.data.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>{t.name}</Table.Td>
                  <Table.Td>
                    <Code>{t.id}</Code>
                  </Table.Td>
                  <Table.Td>{dateTime(t.createdAt)}</Table.Td>
                  <Table.Td>
                    {canEdit && (
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() =>
                          void act(async () => {
                            await api.revokeGatewayToken(g.id, t.id);
                            tokens.reload();
                          })
                        }
                      >
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            No tokens.
          </Text>
        )}
        {canEdit && (
          <Group align="flex-end">
            <TextInput
              label="New token"
              placeholder="what it is for"
              value={tokenName}
              onChange={(e) => setTokenName(e.currentTarget.value)}
            />
            <Button
              variant="light"
              disabled={tokenName.trim() === ''}
              onClick={() =>
                void act(async () => {
                  const t = await api.createGatewayToken(g.id, tokenName.trim());
                  setCreated(t.token);
                  setTokenName('');
                  tokens.reload();
                })
              }
            >
              Create token
            </Button>
          </Group>
        )}
        {created && (
          <Alert color="yellow" title="Store this token now: it is shown once">
            <CopyField label="Token (?token= or X-Nodegate-Gateway-Token)" value={created} testId="gateway-token" />
          </Alert>
        )}
        {problem !== undefined && <ErrorNote error={problem} />}
        {canEdit && (
          <Group justify="flex-end">
            <Button
              size="xs"
              color="red"
              variant="subtle"
              onClick={() =>
                void act(async () => {
                  await api.deleteGateway(g.id);
                  onChanged();
                })
              }
            >
              Delete gateway
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
