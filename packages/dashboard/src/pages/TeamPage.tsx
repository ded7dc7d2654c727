import { Button, Group, Modal, PasswordInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { ErrorNote } from '../components/ErrorNote';
import { date } from '../format';
import { useApp } from '../session';
import type { Role } from '../types';
import { useAsync } from '../useAsync';

const ROLES: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner: everything, members included' },
  { value: 'admin', label: 'Admin: keys and settings' },
  { value: 'viewer', label: 'Viewer: read only' },
];

/** The account's members and their roles; owners add, change and remove members. */
export function TeamPage() {
  const { account, canManageMembers, session } = useApp();
  const accountId = account!.id;
  const { data, error, reload } = useAsync(() => api.members(accountId), [accountId]);
  const [adding, setAdding] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Team</Title>
        {canManageMembers && <Button onClick={() => setAdding(true)}>Add member</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        Owners manage members and keys; admins manage keys and their settings; viewers see keys and usage only.
      </Text>
      <ErrorNote error={error ?? actionError} />
      {data && (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="Members" data-testid="members-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Since</Table.Th>
                {canManageMembers && <Table.Th scope="col">Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>
                    {m.email}
                    {m.id === session.user?.id ? ' (you)' : ''}
                  </Table.Td>
                  <Table.Td>
                    {canManageMembers ? (
                      <Select
                        aria-label={`Role of ${m.email}`}
                        data={ROLES.map((r) => r.value)}
                        value={m.role}
                        w={120}
                        allowDeselect={false}
                        onChange={async (v) => {
                          if (!v) return;
                          setActionError(null);
                          await api.setRole(accountId, m.id, v as Role).catch(setActionError);
                          reload();
                        }}
                      />
                    ) : (
                      m.role
                    )}
                  </Table.Td>
                  <Table.Td>{date(m.createdAt)}</Table.Td>
                  {canManageMembers && (
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${m.email}`}
                        onClick={async () => {
                          if (!window.confirm(`Remove ${m.email} from ${account!.name}?`)) return;
                          setActionError(null);
                          await api.removeMember(accountId, m.id).catch(setActionError);
                          reload();
                        }}
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AddMemberModal
        opened={adding}
        accountId={accountId}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          reload();
        }}
      />
    </Stack>
  );
}

function AddMemberModal(props: { opened: boolean; accountId: string; onClose: () => void; onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<{ field: string | undefined; message: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    try {
      await api.addMember(props.accountId, { email: email.trim(), role, ...(password ? { password } : {}) });
      setEmail('');
      setPassword('');
      props.onAdded();
    } catch (err) {
      setProblem({ field: (err as { field?: string }).field, message: (err as Error).message });
    }
  };
  const errorFor = (f: string) => (problem?.field === f ? problem.message : undefined);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Add a member">
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errorFor('email')}
            data-autofocus
          />
          <Select
            label="Role"
            data={ROLES}
            value={role}
            onChange={(v) => v && setRole(v as Role)}
            allowDeselect={false}
          />
          <PasswordInput
            label="Password (for a new user, at least 10 characters)"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errorFor('password')}
          />
          {problem && !problem.field && (
            <Text c="red" role="alert">
              {problem.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit">Add</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
