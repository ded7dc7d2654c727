import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { navigate } from '../router';
import type { Session } from '../types';

/** Email + password, or the operator's one-time link (`/dashboard/sign-in?token=…`). */
export function SignInPage({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const redeemed = useRef(false);

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token');
    if (!token || redeemed.current) return;
    redeemed.current = true;
    setBusy(true);
    // the token leaves the address bar at once (it is single-use; keep it out of history)
    window.history.replaceState(null, '', '/dashboard/sign-in');
    api.signIn({ signInToken: token }).then(
      (s) => {
        onSignedIn(s);
        navigate('/keys', true);
      },
      (e: unknown) => {
        setError((e as Error).message);
        setBusy(false);
      },
    );
  }, [onSignedIn]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const s = await api.signIn({ email, password });
      onSignedIn(s);
      navigate('/keys', true);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={400}>
        <form onSubmit={submit} aria-labelledby="sign-in-title">
          <Stack>
            <Title order={1} size="h3" id="sign-in-title">
              Sign in to nodegate
            </Title>
            <Text size="sm" c="dimmed">
              Operators: use the one-time link printed by <code>npm start</code> (another one:{' '}
              <code>npx nodegate admin sign-in-link</code>), or <code>operator@localhost</code> and the password set on
              the Account page or with <code>npx nodegate admin set-password</code>.
            </Text>
            {error && (
              <Alert color="red" role="alert" data-testid="sign-in-error">
                {error}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
