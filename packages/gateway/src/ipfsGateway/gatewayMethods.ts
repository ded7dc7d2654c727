/**
 * The method names a dedicated gateway's requests are recorded under (usage, metrics, the access
 * log): one per kind of answer, so the labels stay a fixed set whatever URLs clients send.
 */
export const GATEWAY_METHODS = ['gateway/unixfs', 'gateway/raw', 'gateway/car', 'gateway/codec'] as const;

/** One of {@link GATEWAY_METHODS}. */
export type GatewayMethod = (typeof GATEWAY_METHODS)[number];
