import { Loader, Select, Stack, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { api } from '../api';
import { useApp } from '../session';
import { useAsync } from '../useAsync';

const UsagePanel = lazy(() => import('../usage/UsagePanel'));

/** Usage of the whole account, or of one of its keys. */
export function UsagePage() {
  const { account } = useApp();
  const accountId = account!.id;
  const { data: keys } = useAsync(() => api.keys(accountId), [accountId]);
  const [key, setKey] = useState<string>('');
  const scope = key ? { key } : { account: accountId };
  return (
    <Stack>
      <Title order={2}>Usage</Title>
      <Select
        label="Show usage of"
        maw={360}
        data={[
          { value: '', label: `The whole account (${account!.name})` },
          ...(keys ?? []).map((k) => ({
            value: k.key,
            label: `${k.name || '(unnamed)'} · ${k.key.slice(0, 8)}…${k.revokedAt ? ' (revoked)' : ''}`,
          })),
        ]}
        value={key}
        onChange={(v) => setKey(v ?? '')}
        allowDeselect={false}
      />
      <Suspense fallback={<Loader aria-label="Loading charts" />}>
        <UsagePanel scope={scope} />
      </Suspense>
    </Stack>
  );
}
