import { type Static, Type } from '@sinclair/typebox';
import { MAX_GATEWAY_ORIGINS } from '../GatewayRecord.js';

// The admin API's shapes for dedicated gateways (validated by TypeBox, published as OpenAPI).

const Time = Type.String({ format: 'date-time' });
const Mode = Type.Union([Type.Literal('restricted'), Type.Literal('open')], {
  description:
    'restricted: only what keys of the account pinned (403 otherwise) unless a token or an allowed origin opens it; open: any CID the node has or can fetch',
});
const Origins = Type.Array(Type.String({ maxLength: 300 }), {
  maxItems: MAX_GATEWAY_ORIGINS,
  description: 'Origins whose pages may load anything (https://app.example.com, app.example.com, *.example.com)',
});

export const GatewaySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  accountId: Type.String(),
  mode: Mode,
  allowedOrigins: Type.Array(Type.String()),
  createdAt: Time,
  urls: Type.Object({
    path: Type.String({ description: 'The path form (no DNS needed): append /ipfs/<cid>' }),
    host: Type.Union([Type.String(), Type.Null()], {
      description: 'The host form <name>.ipfs.<domain> (null without ipfs.gateways.domain): append /ipfs/<cid>',
    }),
    subdomain: Type.Union([Type.String(), Type.Null()], {
      description: 'The subdomain form, with {cid} standing for a CIDv1 in base32',
    }),
  }),
  bandwidthToday: Type.Union([Type.Number(), Type.Null()], {
    description: "Bytes the account's gateways served today (UTC), all of them together",
  }),
  bandwidthPerDay: Type.Union([Type.Number(), Type.Null()], {
    description: "The account plan's gatewayBandwidthPerDay (null: unbounded)",
  }),
});
export type GatewayView = Static<typeof GatewaySchema>;

export const GatewayTokenSchema = Type.Object({ id: Type.String(), name: Type.String(), createdAt: Time });
export const CreatedGatewayTokenSchema = Type.Composite([
  GatewayTokenSchema,
  Type.Object({ token: Type.String({ description: 'Shown this once; only its SHA-256 is stored.' }) }),
]);

export const GatewayParams = Type.Object({ gatewayId: Type.String({ pattern: '^gw_[0-9a-f]{24}$' }) });
export const GatewayTokenParams = Type.Object({
  gatewayId: Type.String({ pattern: '^gw_[0-9a-f]{24}$' }),
  tokenId: Type.String({ pattern: '^gwt_[0-9a-f]{16}$' }),
});
export const CreateGatewayBody = Type.Object(
  {
    name: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$',
      description: '3 to 32 lower-case letters, digits and inner dashes: a DNS label, unique on the gateway',
    }),
    mode: Type.Optional(Mode),
    allowedOrigins: Type.Optional(Origins),
  },
  { additionalProperties: false },
);
export const PatchGatewayBody = Type.Object(
  { mode: Type.Optional(Mode), allowedOrigins: Type.Optional(Origins) },
  { additionalProperties: false },
);
export const CreateGatewayTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export const GatewayRequestsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) },
  { additionalProperties: false },
);
