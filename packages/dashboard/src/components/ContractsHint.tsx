import { Code, Text } from '@mantine/core';
import { api } from '../api';
import type { ContractCheckedMethod } from '../types';
import { useAsync } from '../useAsync';

const names = (methods: ContractCheckedMethod[]) =>
  methods.map((m, i) => (
    <span key={m.method}>
      {i > 0 && ', '}
      <Code fz="xs">{m.method}</Code>
    </span>
  ));

/**
 * What the contract allowlist applies to, as the gateway's method tables say
 * (`GET /admin/api/v1/restrictions`), for the networks this gateway serves: the methods whose
 * addresses must be on the list, those that read a plain address's own state (a wallet's
 * balance, nonce or code), and the dev-chain methods it refuses outright.
 */
export function ContractsHint({ families }: { families: ReadonlySet<string> }) {
  const { data, error } = useAsync(() => api.restrictions(), []);
  if (error)
    return <span>One per line. (The gateway did not say which methods it checks: {(error as Error).message})</span>;
  if (!data) return <span>One per line.</span>;
  const methods = data.contracts.methods.filter((m) => families.has(m.family));
  const accountReads = methods.filter((m) => m.readsAccount);
  const others = methods.filter((m) => !m.readsAccount);
  const refused = data.contracts.refusedPrefixes.filter((p) => families.has(p.family));
  const aliases = methods.some((m) => m.aliases.length > 0);
  return (
    <span data-testid="contracts-hint">
      One per line. Every address these methods name must be on the list; other methods are not checked.
      {accountReads.length > 0 && (
        <Text component="span" display="block" size="xs" mt={2} data-testid="contracts-hint-accounts">
          Plain wallet addresses too: to read a wallet's balance, nonce or code, put the wallet's own address here (
          {names(accountReads)}).
        </Text>
      )}
      {others.length > 0 && (
        <Text component="span" display="block" size="xs" mt={2} data-testid="contracts-hint-calls">
          The contracts called, simulated or filtered on ({names(others)}); a call that names no contract (eth_getLogs
          without an address, eth_call without to) is refused.
        </Text>
      )}
      {refused.length > 0 && (
        <Text component="span" display="block" size="xs" mt={2}>
          Refused outright for a key with this list:{' '}
          {refused.map((p, i) => (
            <span key={p.prefix}>
              {i > 0 && ', '}
              <Code fz="xs">{p.prefix}*</Code>
            </span>
          ))}
          {refused.some((p) => p.devOnly) ? ' (dev networks only)' : ''}.
        </Text>
      )}
      {aliases && (
        <Text component="span" display="block" size="xs" mt={2}>
          Starknet methods are checked under their stk_ names too.
        </Text>
      )}
    </span>
  );
}
