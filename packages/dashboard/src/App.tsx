import { AppShell, Burger, Center, Group, Loader, NavLink, Select, Text, Button, Title, Badge } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, setCsrfToken, whenSignedOut } from './api';
import { AccountPage } from './pages/AccountPage';
import { GatewaysPage } from './pages/GatewaysPage';
import { InvitePage } from './pages/InvitePage';
import { KeyDetailPage } from './pages/KeyDetailPage';
import { KeysPage } from './pages/KeysPage';
import { PlanPage } from './pages/PlanPage';
import { RequestsPage } from './pages/RequestsPage';
import { SignInPage } from './pages/SignInPage';
import { TeamPage } from './pages/TeamPage';
import { UsagePage } from './pages/UsagePage';
import { href, navigate, onLinkClick, useLocation } from './router';
import { AppContext, type AppState } from './session';
import type { DashboardConfig, Session } from './types';

const ACCOUNT_STORAGE = 'nodegate.account';
const NAV = [
  { path: '/keys', label: 'Keys' },
  { path: '/usage', label: 'Usage' },
  { path: '/requests', label: 'Requests' },
  { path: '/gateways', label: 'Gateways' },
  { path: '/team', label: 'Team' },
  { path: '/plan', label: 'Plan' },
  { path: '/account', label: 'Account' },
];

export function App() {
  const { path, search } = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [config, setConfig] = useState<DashboardConfig | undefined>(undefined);
  const [accountId, setAccountId] = useState<string | null>(() => localStorage.getItem(ACCOUNT_STORAGE));
  const [opened, { toggle, close }] = useDisclosure(false);

  const adopt = useCallback((s: Session | null) => {
    setCsrfToken(s?.csrfToken ?? null);
    setSession(s);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at load
  useEffect(() => {
    whenSignedOut(() => adopt(null));
    api.config().then(setConfig, () => setConfig({ networks: {}, ipfs: null, adminUrl: '/admin/api/v1' }));
    // a one-time link is redeemed by the sign-in screen; otherwise resume the session (it survives a reload)
    if (path === '/sign-in' && search.get('token')) {
      adopt(null);
      return;
    }
    api.currentSession().then(adopt, () => adopt(null));
  }, []);

  const account = useMemo(() => {
    if (!session) return undefined;
    const all = session.accounts;
    return all.find((a) => a.id === accountId) ?? all.find((a) => a.role !== null) ?? all[0];
  }, [session, accountId]);

  const state: AppState | undefined = useMemo(() => {
    if (!session || !config) return undefined;
    const role = account?.role ?? null;
    return {
      session,
      config,
      account,
      canEditKeys: session.operator || role === 'owner' || role === 'admin',
      canManageMembers: session.operator || role === 'owner',
      setAccount: (id: string) => {
        localStorage.setItem(ACCOUNT_STORAGE, id);
        setAccountId(id);
      },
      signOut: async () => {
        await api.signOut().catch(() => {});
        adopt(null);
        navigate('/sign-in', true);
      },
      refreshSession: async () => {
        adopt(await api.currentSession());
      },
    };
  }, [session, config, account, adopt]);

  useEffect(() => {
    if (session && (path === '/' || path === '/sign-in')) navigate('/keys', true);
    if (session === null && path !== '/sign-in' && path !== '/invite') navigate('/sign-in', true);
  }, [session, path]);

  if (session === undefined || (session && !config)) {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  // an invitation is accepted signed out (a password) or signed in (as the invitee)
  if (path === '/invite') return <InvitePage onAccepted={adopt} />;
  if (!session || !state) return <SignInPage onSignedIn={adopt} />;

  let page: React.ReactNode;
  const keyMatch = /^\/keys\/([0-9a-f]{32})$/.exec(path);
  if (keyMatch) page = <KeyDetailPage keyId={keyMatch[1]!} />;
  else if (path === '/usage') page = <UsagePage />;
  else if (path === '/requests') page = <RequestsPage initialKey={search.get('key') ?? undefined} />;
  else if (path === '/team') page = <TeamPage />;
  else if (path === '/plan') page = <PlanPage />;
  else if (path === '/gateways') page = <GatewaysPage />;
  else if (path === '/account') page = <AccountPage />;
  else page = <KeysPage />;

  const who = session.user?.email ?? 'admin token';
  return (
    <AppContext.Provider value={state}>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
              <Title order={1} size="h4">
                nodegate
              </Title>
              {session.operator && (
                <Badge variant="light" visibleFrom="xs">
                  operator
                </Badge>
              )}
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="signed-in-as">
                {who}
              </Text>
              <Button variant="subtle" size="xs" onClick={() => void state.signOut()}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" aria-label="Main">
          {session.accounts.length > 1 && (
            <Select
              label="Account"
              mb="sm"
              data={session.accounts.map((a) => ({ value: a.id, label: a.name }))}
              value={account?.id ?? null}
              onChange={(v) => v && state.setAccount(v)}
              allowDeselect={false}
            />
          )}
          {account && (
            <Text size="xs" c="dimmed" mb="xs">
              {account.name} · {account.role ?? 'operator'}
            </Text>
          )}
          <nav>
            {NAV.map((n) => (
              <NavLink
                key={n.path}
                component="a"
                href={href(n.path)}
                label={n.label}
                active={path === n.path || (n.path === '/keys' && path.startsWith('/keys/'))}
                onClick={(e) => {
                  onLinkClick(n.path)(e);
                  close();
                }}
                {...(path === n.path ? { 'aria-current': 'page' as const } : {})}
              />
            ))}
          </nav>
        </AppShell.Navbar>
        <AppShell.Main>
          {account || path === '/account' ? (
            page
          ) : (
            <Text role="status">
              This user is not a member of any account yet. Ask an account owner for an invitation link.
            </Text>
          )}
        </AppShell.Main>
      </AppShell>
    </AppContext.Provider>
  );
}
