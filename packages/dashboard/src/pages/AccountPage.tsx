import { Alert, Badge, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../api';
import { useApp } from '../session';

/** Passwords shorter than this are refused (the admin API's rule). */
const MIN_PASSWORD_LENGTH = 10;

/** The signed-in user: who they are, and their password (set a first one, or change it). */
export function AccountPage() {
  const { session, refreshSession } = useApp();
  const user = session.user;
  if (!user) {
    return (
      <Stack>
        <Title order={2}>Account</Title>
        <Text>Signed in with the admin token: it has no user and no password.</Text>
      </Stack>
    );
  }
  return (
    <Stack maw={560}>
      <Title order={2}>Account</Title>
      <Card withBorder>
        <Group gap="xs">
          <Text fw={600} data-testid="account-email">
            {user.email}
          </Text>
          {user.operator && <Badge variant="light">operator</Badge>}
        </Group>
        <Text size="sm" c="dimmed" data-testid="password-state">
          {user.hasPassword ? 'Signs in with a password.' : 'No password yet: signs in with one-time links only.'}
        </Text>
      </Card>
      <PasswordForm hasPassword={user.hasPassword} operator={user.operator} onChanged={refreshSession} />
    </Stack>
  );
}

function PasswordForm({
  hasPassword,
  operator,
  onChanged,
}: {
  hasPassword: boolean;
  operator: boolean;
  onChanged: () => Promise<void>;
}) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | undefined } | null>(null);
  const [done, setDone] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    if (next.length < MIN_PASSWORD_LENGTH) {
      setError({ message: `At least ${MIN_PASSWORD_LENGTH} characters.`, field: 'newPassword' });
      return;
    }
    if (next !== again) {
      setError({ message: 'The two new passwords differ.', field: 'again' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.changePassword(hasPassword ? { currentPassword: current, newPassword: next } : { newPassword: next });
      setCurrent('');
      setNext('');
      setAgain('');
      setDone(true);
      await onChanged();
    } catch (err) {
      setError({ message: (err as Error).message, field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(false);
    }
  };
  // on its field, the API's "field: " prefix says nothing more
  const fieldError = (field: string) => (error?.field === field ? error.message.replace(`${field}: `, '') : undefined);

  return (
    <Card withBorder component="form" onSubmit={submit} aria-labelledby="password-title">
      <Stack>
        <Title order={3} size="h4" id="password-title">
          {hasPassword ? 'Change password' : 'Set a password'}
        </Title>
        {!hasPassword && (
          <Text size="sm" c="dimmed">
            A first password can be set within 10 minutes of signing in.
            {operator && (
              <>
                {' '}
                For a new link: <code>npx nodegate admin sign-in-link</code>; or set it from the command line with{' '}
                <code>npx nodegate admin set-password</code>.
              </>
            )}
          </Text>
        )}
        {done && (
          <Alert color="green" role="status" data-testid="password-changed">
            Password saved. Your other sessions were signed out.
          </Alert>
        )}
        {error && !error.field && (
          <Alert color="red" role="alert" data-testid="password-error">
            {error.message}
          </Alert>
        )}
        {hasPassword && (
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={current}
            error={fieldError('currentPassword')}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
        )}
        <PasswordInput
          label="New password"
          description={`At least ${MIN_PASSWORD_LENGTH} characters`}
          autoComplete="new-password"
          required
          value={next}
          error={fieldError('newPassword')}
          onChange={(e) => setNext(e.currentTarget.value)}
        />
        <PasswordInput
          label="Repeat the new password"
          autoComplete="new-password"
          required
          value={again}
          error={fieldError('again')}
          onChange={(e) => setAgain(e.currentTarget.value)}
        />
        <Group>
          <Button type="submit" loading={busy}>
            {hasPassword ? 'Change password' : 'Set password'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
