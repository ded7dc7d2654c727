import { Alert, Button, Center, Loader, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { dateTime } from '../format';
import { navigate } from '../router';
import type { InvitationLookup, Session } from '../types';

/** The invitation's token, from the link's fragment (`/dashboard/invite#token=…`), read once. */
function takeToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  // the token leaves the address bar at once (it is single-use; keep it out of history)
  if (token) window.history.replaceState(null, '', '/dashboard/invite');
  return token;
}

/**
 * Accepting an invitation (`/dashboard/invite#token=…`): says which account and role it is for,
 * then joins with the invitee's own secret: their session when they are signed in as the
 * invitee, their password when they have a user, a password they choose now when they have none.
 */
export function InvitePage({ onAccepted }: { onAccepted: (s: Session) => void }) {
  const [token] = useState(takeToken);
  const [invitation, setInvitation] = useState<InvitationLookup | null>(null);
  const [error, setError] = useState<string | null>(
    token ? null : 'This page needs the invitation link you were sent.',
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const looked = useRef(false);

  useEffect(() => {
    if (!token || looked.current) return;
    looked.current = true;
    api.lookupInvitation(token).then(setInvitation, (e: unknown) => setError((e as Error).message));
  }, [token]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token || !invitation) return;
    if (invitation.accept === 'new-password' && password !== confirm) {
      setError('the two passwords differ');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const s = await api.acceptInvitation(invitation.accept === 'session' ? { token } : { token, password });
      onAccepted(s);
      navigate('/keys', true);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <form onSubmit={submit} aria-labelledby="invite-title">
          <Stack>
            <Title order={1} size="h3" id="invite-title">
              {invitation ? `Join ${invitation.accountName}` : 'Invitation'}
            </Title>
            {error && (
              <Alert color="red" role="alert" data-testid="invite-error">
                {error}
              </Alert>
            )}
            {!invitation && !error && <Loader aria-label="Loading the invitation" />}
            {invitation && (
              <>
                <Text size="sm" data-testid="invite-summary">
                  {invitation.email} is invited as {invitation.role}, until {dateTime(invitation.expiresAt)}.
                </Text>
                {invitation.accept === 'new-password' && (
                  <>
                    <PasswordInput
                      label="Choose a password (at least 10 characters)"
                      autoComplete="new-password"
                      required
                      minLength={10}
                      value={password}
                      onChange={(e) => setPassword(e.currentTarget.value)}
                    />
                    <PasswordInput
                      label="The same password again"
                      autoComplete="new-password"
                      required
                      value={confirm}
                      onChange={(e) => setConfirm(e.currentTarget.value)}
                    />
                  </>
                )}
                {invitation.accept === 'password' && (
                  <PasswordInput
                    label={`Your password for ${invitation.email}`}
                    autoComplete="current-password"
                    required
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                  />
                )}
                {invitation.accept === 'sign-in' ? (
                  <Text size="sm" role="status">
                    {invitation.email} has no password yet: sign in first (the operator with the one-time link printed
                    by <code>npm start</code>), then open this invitation again.
                  </Text>
                ) : (
                  <Button type="submit" loading={busy}>
                    Accept and sign in
                  </Button>
                )}
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
