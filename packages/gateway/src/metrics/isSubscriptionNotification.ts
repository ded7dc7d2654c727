/**
 * The notifications a subscription sends (they are recorded as usage events, one per message):
 * `eth_subscription`, and Starknet's spec 0.10 `starknet_subscription*` messages.
 */
export const SUBSCRIPTION_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'eth_subscription',
  'starknet_subscriptionNewHeads',
  'starknet_subscriptionEvents',
  'starknet_subscriptionTransactionStatus',
  'starknet_subscriptionNewTransaction',
  'starknet_subscriptionNewTransactions',
  'starknet_subscriptionNewTransactionReceipts',
  'starknet_subscriptionReorg',
]);

/**
 * Whether a usage event's method is a subscription's notification rather than a request
 * (`eth_subscription`, `starknet_subscriptionNewHeads`, … and their `stk_` forms).
 *
 * @example
 * isSubscriptionNotification('eth_subscription') // true
 * isSubscriptionNotification('eth_subscribe')    // false (the request that opens it)
 */
export function isSubscriptionNotification(method: string): boolean {
  return (
    SUBSCRIPTION_NOTIFICATIONS.has(method) ||
    (method.startsWith('stk_subscription') && SUBSCRIPTION_NOTIFICATIONS.has(`starknet_${method.slice(4)}`))
  );
}
