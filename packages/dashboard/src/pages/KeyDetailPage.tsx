import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Loader,
  NumberInput,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { ApiError, api } from '../api';
import { CopyField } from '../components/CopyField';
import { ContractsHint } from '../components/ContractsHint';
import { ErrorNote } from '../components/ErrorNote';
import { endpointLabel } from '../endpointLabel';
import { dateTime } from '../format';
import { href, navigate, onLinkClick } from '../router';
import { useApp } from '../session';
import { endpointsOf, snippetsOf } from '../snippets';
import type { ApiKey, JwtKey, KeySettings } from '../types';
import { useAsync } from '../useAsync';
import { RevokeModal } from './KeysPage';

const UsagePanel = lazy(() => import('../usage/UsagePanel'));

export function KeyDetailPage({ keyId }: { keyId: string }) {
  const { config, canEditKeys } = useApp();
  const { data: k, error, setData } = useAsync(() => api.key(keyId), [keyId]);
  const [revoking, setRevoking] = useState(false);
  if (error) return <ErrorNote error={error} />;
  if (!k) return <Loader aria-label="Loading the key" />;
  const endpoints = endpointsOf(config, k.key);
  const snippets = snippetsOf(config, k.key, k.settings);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Anchor href={href('/keys')} onClick={onLinkClick('/keys')} size="sm">
            ← Keys
          </Anchor>
          <Title order={2}>{k.name || '(unnamed key)'}</Title>
          <Text size="sm" c="dimmed">
            Plan {k.effectivePlan} · created {dateTime(k.createdAt)}
          </Text>
        </div>
        <Group gap="xs">
          {k.revokedAt && <Badge color="red">revoked</Badge>}
          <Button
            variant="light"
            component="a"
            href={href(`/requests?key=${k.key}`)}
            onClick={onLinkClick(`/requests?key=${k.key}`)}
          >
            Request explorer
          </Button>
          {canEditKeys && !k.revokedAt && (
            <Button color="red" variant="outline" onClick={() => setRevoking(true)}>
              Delete key
            </Button>
          )}
        </Group>
      </Group>
      <CopyField label="API key" value={k.key} testId="key-id" />

      <section aria-labelledby="endpoints-title">
        <Title order={3} id="endpoints-title" mb="xs">
          Endpoints
        </Title>
        <Stack gap="sm">
          {endpoints.map((e) => (
            <Card key={e.network} withBorder padding="sm">
              <Group gap="xs" mb={4}>
                <Text fw={600}>{e.network}</Text>
                <Badge variant="light" size="sm">
                  {e.family}
                </Badge>
              </Group>
              <Stack gap={6}>
                {/* HTTPS/WSS only when the gateway (or its publicUrl) speaks TLS */}
                <CopyField
                  label={`${e.network} ${endpointLabel(e.https)}`}
                  value={e.https}
                  testId={`endpoint-https-${e.network}`}
                />
                <CopyField
                  label={`${e.network} ${endpointLabel(e.wss)}`}
                  value={e.wss}
                  testId={`endpoint-wss-${e.network}`}
                />
              </Stack>
            </Card>
          ))}
          {config.ipfs && (
            <Card withBorder padding="sm">
              <Text fw={600} mb={4}>
                IPFS
              </Text>
              <CopyField label="IPFS API" value={`${config.ipfs}/api/v0`} testId="endpoint-ipfs" />
              <Text size="xs" c="dimmed" mt={4}>
                HTTP basic auth: the API key as user, its secret as password.
              </Text>
            </Card>
          )}
        </Stack>
      </section>

      <section aria-labelledby="snippets-title">
        <Title order={3} id="snippets-title" mb="xs">
          Quick start
        </Title>
        <Tabs defaultValue={snippets[0]?.id ?? null}>
          <Tabs.List>
            {snippets.map((s) => (
              <Tabs.Tab key={s.id} value={s.id}>
                {s.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {snippets.map((s) => (
            <Tabs.Panel key={s.id} value={s.id} pt="xs">
              <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }} data-testid={`snippet-${s.id}`}>
                {s.code}
              </Code>
              {s.notes.length > 0 && (
                <Stack gap={2} mt={6} data-testid={`snippet-notes-${s.id}`}>
                  {s.notes.map((n) => (
                    <Text key={n} size="xs" c="dimmed">
                      {n}
                    </Text>
                  ))}
                </Stack>
              )}
              <CopyButton value={s.code}>
                {({ copied, copy }) => (
                  <Button size="xs" mt={6} variant="light" onClick={copy}>
                    {copied ? 'Copied' : `Copy ${s.label} snippet`}
                  </Button>
                )}
              </CopyButton>
            </Tabs.Panel>
          ))}
        </Tabs>
      </section>

      <SettingsForm
        apiKey={k}
        readOnly={!canEditKeys || k.revokedAt !== null}
        onSaved={setData}
        families={new Set(Object.values(config.networks).map((n) => n.family))}
      />

      <section aria-labelledby="key-usage-title">
        <Title order={3} id="key-usage-title" mb="xs">
          Usage of this key
        </Title>
        <Suspense fallback={<Loader aria-label="Loading charts" />}>
          <UsagePanel scope={{ key: k.key }} dailyLimit={k.settings.creditsPerDay} />
        </Suspense>
      </section>

      <RevokeModal
        apiKey={revoking ? k : null}
        onClose={() => setRevoking(false)}
        onDone={() => {
          setRevoking(false);
          navigate('/keys');
        }}
      />
    </Stack>
  );
}

type ListField = 'allowedOrigins' | 'allowedUserAgents' | 'allowedContracts' | 'allowedMethods';
const LISTS: { field: ListField; label: string; description: string; placeholder: string }[] = [
  {
    field: 'allowedOrigins',
    label: 'Allowed origins',
    description: 'One per line; *.example.com matches subdomains. Empty: any origin.',
    placeholder: 'https://app.example.com',
  },
  {
    field: 'allowedUserAgents',
    label: 'Allowed user agents',
    description: 'One per line; a request passes when its User-Agent contains one of them.',
    placeholder: 'my-backend/1.0',
  },
  {
    field: 'allowedContracts',
    label: 'Allowed contract addresses',
    description: 'One per line.',
    placeholder: '0x…',
  },
  {
    field: 'allowedMethods',
    label: 'Allowed API methods',
    description: 'One per line. Empty: every method.',
    placeholder: 'eth_blockNumber',
  },
];

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `settings.allowedOrigins[2]` → `allowedOrigins`. */
const fieldOf = (field: string | undefined) => /^(?:settings\.)?(\w+)/.exec(field ?? '')?.[1];

function SettingsForm({
  apiKey,
  readOnly,
  onSaved,
  families,
}: {
  apiKey: ApiKey;
  readOnly: boolean;
  onSaved: (k: ApiKey) => void;
  /** The method families this gateway serves (the contract allowlist's hint names their methods). */
  families: ReadonlySet<string>;
}) {
  const s = apiKey.settings;
  const [lists, setLists] = useState<Record<ListField, string>>({
    allowedOrigins: s.allowedOrigins.join('\n'),
    allowedUserAgents: s.allowedUserAgents.join('\n'),
    allowedContracts: s.allowedContracts.join('\n'),
    allowedMethods: s.allowedMethods.join('\n'),
  });
  const [requireSecret, setRequireSecret] = useState(s.requireSecret);
  const [requireJwt, setRequireJwt] = useState(s.requireJwt);
  const [jwtKeys, setJwtKeys] = useState<JwtKey[]>(s.jwtKeys);
  const [cps, setCps] = useState<number | string>(s.creditsPerSecond ?? '');
  const [cpd, setCpd] = useState<number | string>(s.creditsPerDay ?? '');
  const [problem, setProblem] = useState<{ field: string | undefined; message: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const errorFor = (f: string) => (problem && fieldOf(problem.field) === f ? problem.message : undefined);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setSaved(false);
    setProblem(null);
    const settings: Partial<KeySettings> = {
      allowedOrigins: lines(lists.allowedOrigins),
      allowedUserAgents: lines(lists.allowedUserAgents),
      allowedContracts: lines(lists.allowedContracts),
      allowedMethods: lines(lists.allowedMethods),
      requireSecret,
      requireJwt,
      jwtKeys: jwtKeys.map((j) => ({ name: j.name.trim(), pem: j.pem.trim() })),
      creditsPerSecond: cps === '' ? null : Number(cps),
      creditsPerDay: cpd === '' ? null : Number(cpd),
    };
    try {
      const k = await api.updateSettings(apiKey.key, settings);
      onSaved(k);
      setLists({
        allowedOrigins: k.settings.allowedOrigins.join('\n'),
        allowedUserAgents: k.settings.allowedUserAgents.join('\n'),
        allowedContracts: k.settings.allowedContracts.join('\n'),
        allowedMethods: k.settings.allowedMethods.join('\n'),
      });
      setSaved(true);
    } catch (err) {
      setProblem({ field: err instanceof ApiError ? err.field : undefined, message: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="security-title">
      <Title order={3} id="security-title" mb="xs">
        Security and limits
      </Title>
      <form onSubmit={save} data-testid="settings-form">
        <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            {LISTS.map((l) => (
              <Textarea
                key={l.field}
                label={l.label}
                description={l.field === 'allowedContracts' ? <ContractsHint families={families} /> : l.description}
                placeholder={l.placeholder}
                autosize
                minRows={2}
                maxRows={8}
                value={lists[l.field]}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setLists((x) => ({ ...x, [l.field]: v }));
                }}
                error={errorFor(l.field)}
                data-testid={`setting-${l.field}`}
              />
            ))}
            <Switch
              label="Require the API key secret (HTTP basic auth, as curl --user :SECRET)"
              checked={requireSecret}
              onChange={(e) => setRequireSecret(e.currentTarget.checked)}
              error={errorFor('requireSecret')}
            />
            <Card withBorder padding="sm">
              <Text fw={600} size="sm">
                JWT public keys (RS256 or ES256, up to 3)
              </Text>
              <Text size="xs" c="dimmed" mb="xs">
                Tokens need exp and aud = this API key, sent as Authorization: Bearer.
              </Text>
              <Stack gap="xs">
                {jwtKeys.map((j, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
                  <Stack key={i} gap={4}>
                    <TextInput
                      label={`JWT key ${i + 1} name`}
                      value={j.name}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setJwtKeys((xs) => xs.map((x, n) => (n === i ? { ...x, name: v } : x)));
                      }}
                    />
                    <Textarea
                      label={`JWT key ${i + 1} public key (PEM)`}
                      autosize
                      minRows={3}
                      value={j.pem}
                      styles={{ input: { fontFamily: 'ui-monospace, monospace', fontSize: 12 } }}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setJwtKeys((xs) => xs.map((x, n) => (n === i ? { ...x, pem: v } : x)));
                      }}
                    />
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => setJwtKeys((xs) => xs.filter((_, n) => n !== i))}
                      style={{ alignSelf: 'flex-start' }}
                    >
                      Remove JWT key {i + 1}
                    </Button>
                  </Stack>
                ))}
                {errorFor('jwtKeys') && (
                  <Text c="red" size="sm" role="alert">
                    {errorFor('jwtKeys')}
                  </Text>
                )}
                {jwtKeys.length < 3 && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    onClick={() => setJwtKeys((xs) => [...xs, { name: '', pem: '' }])}
                    style={{ alignSelf: 'flex-start' }}
                  >
                    Add JWT key
                  </Button>
                )}
                <Switch
                  label="Require a valid JWT"
                  checked={requireJwt}
                  onChange={(e) => setRequireJwt(e.currentTarget.checked)}
                  error={errorFor('requireJwt')}
                />
              </Stack>
            </Card>
            <Group grow align="flex-start">
              <NumberInput
                label="Credits per second"
                description="Empty: the plan's"
                min={1}
                allowDecimal={false}
                value={cps}
                onChange={setCps}
                error={errorFor('creditsPerSecond')}
              />
              <NumberInput
                label="Credits per day"
                description="Empty: the plan's"
                min={1}
                allowDecimal={false}
                value={cpd}
                onChange={setCpd}
                error={errorFor('creditsPerDay')}
              />
            </Group>
            {problem && (
              <Text c="red" role="alert" data-testid="settings-error">
                {problem.message}
              </Text>
            )}
            {saved && (
              <Text c="teal" role="status" data-testid="settings-saved">
                Saved. The change applies to the next request.
              </Text>
            )}
            {!readOnly && (
              <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }}>
                Save settings
              </Button>
            )}
          </Stack>
        </fieldset>
      </form>
    </section>
  );
}
