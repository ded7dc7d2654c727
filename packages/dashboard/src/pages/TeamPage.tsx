import { Alert, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { CopyField } from '../components/CopyField';
import { ErrorNote } from '../components/ErrorNote';
import { date, dateTime } from '../format';
import { useApp } from '../session';
import type { CreatedInvitation, Role } from '../types';
import { useAsync } from '../useAsync';

const ROLES: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner: everything, members included' },
  { value: 'admin', label: 'Admin: keys and settings' },
  { value: 'viewer', label: 'Viewer: read only' },
];

/** The account's members and their roles; owners invite, change and remove members, and see pending invitations. */
export function TeamPage() {
  const { account, canManageMembers, session } = useApp();
  const accountId = account!.id;
  const { data, error, reload } = useAsync(() => api.members(accountId), [accountId]);
  const [adding, setAdding] = useState(false);
  const [invitations, setInvitations] = useState(0);
  const [actionError, setActionError] = useState<unknown>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Team</Title>
        {canManageMembers && <Button onClick={() => setAdding(true)}>Invite member</Button>}
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
      {canManageMembers && <PendingInvitations accountId={accountId} version={invitations} />}
      <InviteMemberModal
        opened={adding}
        accountId={accountId}
        onClose={() => setAdding(false)}
        onInvited={() => setInvitations((n) => n + 1)}
      />
    </Stack>
  );
}

function InviteMemberModal(props: { opened: boolean; accountId: string; onClose: () => void; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [invited, setInvited] = useState<CreatedInvitation | null>(null);
  const [problem, setProblem] = useState<{ field: string | undefined; message: string } | null>(null);
  const close = () => {
    setInvited(null);
    setProblem(null);
    props.onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    try {
      setInvited(await api.inviteMember(props.accountId, { email: email.trim(), role }));
      setEmail('');
      props.onInvited();
    } catch (err) {
      setProblem({ field: (err as { field?: string }).field, message: (err as Error).message });
    }
  };
  const errorFor = (f: string) => (problem?.field === f ? problem.message : undefined);
  return (
    <Modal opened={props.opened} onClose={close} title={invited ? 'Invitation link' : 'Invite a member'}>
      {invited ? (
        <Stack>
          <Alert color="yellow" title="Send this link to the invitee only" role="alert">
            {invited.email} joins as {invited.role} by opening it: they choose their own password, or sign in if they
            already have a user. It works once, until {dateTime(invited.expiresAt)}. Whoever holds it can accept it:
            send it over a channel you trust. It is shown only now.
          </Alert>
          <CopyField label="Invitation link" value={invited.inviteUrl} testId="invite-url" />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm" c="dimmed">
              The invitee joins when they open the link you get next; nobody sets a password for them.
            </Text>
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
            {problem && !problem.field && (
              <Text c="red" role="alert">
                {problem.message}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit">Invite</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** The account's pending invitations, for its owners: who, which role, until when; withdraw. */
function PendingInvitations({ accountId, version }: { accountId: string; version: number }) {
  const { data, error, reload } = useAsync(() => api.invitations(accountId), [accountId, version]);
  const [actionError, setActionError] = useState<unknown>(null);
  if (data && data.length === 0 && !error) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Pending invitations
      </Title>
      <ErrorNote error={error ?? actionError} />
      {data && (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="Pending invitations" data-testid="invitations-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Until</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.email}</Table.Td>
                  <Table.Td>{i.role}</Table.Td>
                  <Table.Td>{dateTime(i.expiresAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Withdraw the invitation of ${i.email}`}
                      onClick={async () => {
                        setActionError(null);
                        await api.withdrawInvitation(accountId, i.id).catch(setActionError);
                        reload();
                      }}
                    >
                      Withdraw
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
