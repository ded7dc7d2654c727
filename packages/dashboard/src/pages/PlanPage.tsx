import { Card, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { api } from '../api';
import { ErrorNote } from '../components/ErrorNote';
import { num } from '../format';
import { useApp } from '../session';
import { useAsync } from '../useAsync';

/** The account's plan: its limits and today's consumption. */
export function PlanPage() {
  const { account } = useApp();
  const accountId = account!.id;
  const { data, error } = useAsync(() => api.plan(accountId), [accountId]);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loader aria-label="Loading the plan" />;
  const { plan, activeKeys, usedToday } = data;
  return (
    <Stack>
      <Title order={2}>
        Plan: <span data-testid="plan-name">{plan.name}</span>
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <Fact label="Credits per day" value={num(plan.creditsPerDay)} />
        <Fact label="Credits per second" value={num(plan.creditsPerSecond)} />
        <Fact label="Active keys" value={`${activeKeys} of ${plan.maxKeys}`} />
        <Fact label="Failover protection" value={plan.failoverProtection ? 'on' : 'off'} />
      </SimpleGrid>
      <Card withBorder>
        <Title order={3} size="h4" mb="xs">
          Today (UTC)
        </Title>
        {usedToday === null ? (
          <Text c="dimmed">This gateway does not count daily credits.</Text>
        ) : (
          <>
            <Text mb={6} data-testid="plan-used-today">
              {num(usedToday)} of {num(plan.creditsPerDay)} credits used (
              {((usedToday / plan.creditsPerDay) * 100).toFixed(2)}%)
            </Text>
            <Progress value={Math.min(100, (usedToday / plan.creditsPerDay) * 100)} aria-label="Daily credits used" />
            <Text size="xs" c="dimmed" mt={6}>
              Resets at 00:00 UTC. Over the daily credits, requests are refused with HTTP 429.
            </Text>
          </>
        )}
      </Card>
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Card>
  );
}
