import { Alert, Anchor, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { CopyField } from '../components/CopyField';
import { ErrorNote } from '../components/ErrorNote';
import { date, dateTime, num, startOfUtcDay } from '../format';
import { href, onLinkClick } from '../router';
import { useApp } from '../session';
import type { ApiKey, CreatedKey } from '../types';
import { useAsync } from '../useAsync';

interface KeyRow extends ApiKey {
  lastUsed: string | null;
  requestsToday: number | null;
}

/** The account's live keys, with last use and today's requests. */
async function loadKeys(accountId: string): Promise<KeyRow[]> {
  const keys = (await api.keys(accountId)).filter((k) => k.revokedAt === null);
  const from = startOfUtcDay();
  return Promise.all(
    keys.map(async (k) => {
      const [last, usage] = await Promise.all([
        api.requests(k.key, { limit: 1 }).catch(() => []),
        api.usage({ key: k.key, from, to: Date.now() + 1000 }, '1d', false).catch(() => undefined),
      ]);
      return { ...k, lastUsed: last[0]?.at ?? null, requestsToday: usage ? usage.totals.requests : null };
    }),
  );
}

export function KeysPage() {
  const { account, canEditKeys } = useApp();
  const accountId = account!.id;
  const { data, error, loading, reload } = useAsync(() => loadKeys(accountId), [accountId]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [renaming, setRenaming] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>API keys</Title>
        {canEditKeys && (
          <Button onClick={() => setCreating(true)} data-testid="create-key">
            Create key
          </Button>
        )}
      </Group>
      <ErrorNote error={error} />
      {!loading && data && data.length === 0 && <Text c="dimmed">No keys yet.</Text>}
      {data && data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="API keys" data-testid="keys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Key</Table.Th>
                <Table.Th scope="col">Plan</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
                <Table.Th scope="col">Last used</Table.Th>
                <Table.Th scope="col">Requests today</Table.Th>
                {canEditKeys && <Table.Th scope="col">Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((k) => (
                <Table.Tr key={k.key} data-key={k.key}>
                  <Table.Td>
                    <Anchor href={href(`/keys/${k.key}`)} onClick={onLinkClick(`/keys/${k.key}`)}>
                      {k.name || '(unnamed)'}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ff="monospace" fz="sm">
                    {k.key.slice(0, 8)}…
                  </Table.Td>
                  <Table.Td>{k.effectivePlan}</Table.Td>
                  <Table.Td>{date(k.createdAt)}</Table.Td>
                  <Table.Td>{k.lastUsed ? dateTime(k.lastUsed) : 'never'}</Table.Td>
                  <Table.Td>{k.requestsToday === null ? '–' : num(k.requestsToday)}</Table.Td>
                  {canEditKeys && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => setRenaming(k)}
                          aria-label={`Rename ${k.name}`}
                        >
                          Rename
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => setRevoking(k)}
                          aria-label={`Delete ${k.name}`}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <CreateKeyModal
        opened={creating}
        accountId={accountId}
        onClose={() => setCreating(false)}
        onCreated={(k) => {
          setCreating(false);
          setCreated(k);
          reload();
        }}
      />
      <Modal opened={created !== null} onClose={() => setCreated(null)} title="Your new API key" size="lg">
        {created && (
          <Stack>
            <Alert color="yellow" title="Copy the secret now" role="alert">
              This is the only time the secret is shown: only its hash is stored. Keep it out of browser code.
            </Alert>
            <CopyField label="API key" value={created.key} testId="new-key" />
            <CopyField label="API key secret" value={created.secret} testId="new-secret" />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setCreated(null)}>
                Done
              </Button>
              <Button component="a" href={href(`/keys/${created.key}`)} onClick={onLinkClick(`/keys/${created.key}`)}>
                Open key
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <RenameModal
        apiKey={renaming}
        onClose={() => setRenaming(null)}
        onDone={() => {
          setRenaming(null);
          reload();
        }}
      />
      <RevokeModal
        apiKey={revoking}
        onClose={() => setRevoking(null)}
        onDone={() => {
          setRevoking(null);
          reload();
        }}
      />
    </Stack>
  );
}

function CreateKeyModal(props: {
  opened: boolean;
  accountId: string;
  onClose: () => void;
  onCreated: (k: CreatedKey) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const k = await api.createKey(props.accountId, name.trim());
      setName('');
      props.onCreated(k);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Create an API key">
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Name"
            description="What uses this key, e.g. my-dapp-production"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={200}
            required
            data-autofocus
            error={error}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RenameModal({ apiKey, onClose, onDone }: { apiKey: ApiKey | null; onClose: () => void; onDone: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  if (apiKey && shown !== apiKey.key) {
    setShown(apiKey.key);
    setName(apiKey.name);
    setError(null);
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!apiKey) return;
    try {
      await api.renameKey(apiKey.key, name.trim());
      setShown(null);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Modal
      opened={apiKey !== null}
      onClose={() => {
        setShown(null);
        onClose();
      }}
      title="Rename key"
    >
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={200}
            data-autofocus
            error={error}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Revoking is final: every request with the key is refused at once (401). */
export function RevokeModal({
  apiKey,
  onClose,
  onDone,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title="Delete this key?">
      <Stack>
        <Text>
          <b>{apiKey?.name || apiKey?.key}</b> will be revoked: every request with it is refused from now on. This
          cannot be undone.
        </Text>
        {error && (
          <Text c="red" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={busy}
            data-testid="confirm-revoke"
            onClick={async () => {
              if (!apiKey) return;
              setBusy(true);
              try {
                await api.revokeKey(apiKey.key);
                setError(null);
                onDone();
              } catch (err) {
                setError((err as Error).message);
              } finally {
                setBusy(false);
              }
            }}
          >
            Delete key
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
