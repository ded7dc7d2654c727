import { type Static, Type } from '@sinclair/typebox';
import { MAX_ALLOWLIST_ENTRIES, MAX_JWT_KEYS } from '../keys/KeySettings.js';

// The admin API's request and response shapes: one TypeBox schema per shape, attached to the
// routes (validation, serialisation) and published as OpenAPI by @fastify/swagger.

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 64 });
const Time = Type.String({ format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      field: Type.Optional(Type.String()),
    }),
  },
  { description: 'Every refusal: 400 validation (naming the field), 401, 403, 404, 409, 429 (with Retry-After).' },
);

export const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('viewer')]);

export const JwtKeySchema = Type.Object(
  { name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }), pem: Type.String({ maxLength: 16_384 }) },
  { additionalProperties: false },
);

const Credits = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]);
const List = (entry: ReturnType<typeof Type.String>) => Type.Array(entry, { maxItems: MAX_ALLOWLIST_ENTRIES });

export const KeySettingsSchema = Type.Object(
  {
    allowedOrigins: List(Type.String({ maxLength: 300 })),
    allowedUserAgents: List(Type.String({ minLength: 1, maxLength: 256 })),
    allowedContracts: List(Type.String({ pattern: '^0[xX][0-9a-fA-F]{1,64}$' })),
    allowedMethods: List(Type.String({ pattern: '^[a-zA-Z0-9_/]{1,128}$' })),
    requireSecret: Type.Boolean(),
    jwtKeys: Type.Array(JwtKeySchema, { maxItems: MAX_JWT_KEYS }),
    requireJwt: Type.Boolean(),
    creditsPerSecond: Credits,
    creditsPerDay: Credits,
    enableFailover: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const KeySchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  accountId: Type.String(),
  plan: Nullable(Type.String()),
  effectivePlan: Type.String(),
  dev: Type.Boolean(),
  createdAt: Time,
  revokedAt: Nullable(Time),
  settings: KeySettingsSchema,
});
export type KeyView = Static<typeof KeySchema>;

export const CreatedKeySchema = Type.Composite([
  KeySchema,
  Type.Object({ secret: Type.String({ description: 'Shown this once; only its hash is stored.' }) }),
]);
export type CreatedKeyView = Static<typeof CreatedKeySchema>;

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  operator: Type.Boolean(),
  hasPassword: Type.Boolean(),
  createdAt: Time,
});
export type UserView = Static<typeof UserSchema>;

export const MemberSchema = Type.Composite([UserSchema, Type.Object({ role: RoleSchema })]);
export type MemberView = Static<typeof MemberSchema>;

export const InvitationSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  invitedBy: Type.Union([Type.String(), Type.Null()], { description: 'the inviting user (null: an admin token)' }),
  createdAt: Time,
  expiresAt: Time,
});
export type InvitationView = Static<typeof InvitationSchema>;

export const CreatedInvitationSchema = Type.Composite([
  InvitationSchema,
  Type.Object({
    token: Type.String({ description: 'Shown this once; only its hash is stored. Give it to the invitee only.' }),
    inviteUrl: Type.String({
      description: 'The dashboard page where the invitee accepts (the token in its fragment).',
    }),
  }),
]);
export type CreatedInvitationView = Static<typeof CreatedInvitationSchema>;

export const InvitationLookupSchema = Type.Object({
  accountName: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  expiresAt: Time,
  accept: Type.Union(
    [Type.Literal('session'), Type.Literal('password'), Type.Literal('new-password'), Type.Literal('sign-in')],
    {
      description:
        'How to accept: session (signed in as the invitee: send the token alone), password (the user exists: ' +
        'their password), new-password (no user yet: choose one), sign-in (a user without a password: sign in first)',
    },
  ),
});
export type InvitationLookupView = Static<typeof InvitationLookupSchema>;

export const AccountSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: Type.String(),
  createdAt: Time,
  role: Type.Union([RoleSchema, Type.Null()], { description: "The caller's role (null: the operator, not a member)" }),
});
export type AccountView = Static<typeof AccountSchema>;

export const SessionSchema = Type.Object({
  user: Type.Union([UserSchema, Type.Null()], { description: 'null for an admin token' }),
  operator: Type.Boolean(),
  csrfToken: Nullable(Type.String()),
  accounts: Type.Array(AccountSchema),
});
export type SessionView = Static<typeof SessionSchema>;

export const PlanSchema = Type.Object({
  name: Type.String(),
  creditsPerSecond: Type.Number(),
  creditsPerDay: Type.Number(),
  failoverProtection: Type.Boolean(),
  maxKeys: Type.Integer(),
  ipfsServedBytesPerDay: Type.Optional(
    Type.Number({ description: 'IPFS content bytes a key may be served per UTC day, on every instance together' }),
  ),
  ipfsServedBytesPerRequest: Type.Optional(Type.Number({ description: 'Bytes one IPFS answer of content may carry' })),
  ipfsServedBytesPerSecond: Type.Optional(
    Type.Number({ description: "Bytes per second a key's IPFS answers of content are paced to" }),
  ),
  gatewayBandwidthPerDay: Type.Optional(
    Type.Number({ description: "Bytes an account's dedicated IPFS gateways may serve per UTC day, all together" }),
  ),
});

export const AccountPlanSchema = Type.Object({
  plan: PlanSchema,
  activeKeys: Type.Integer(),
  usedToday: Type.Union([Type.Number(), Type.Null()], { description: 'Credits spent today (UTC) by all keys' }),
});

// requests
export const AccountParams = Type.Object({ id: Id });
export const MemberParams = Type.Object({ id: Id, userId: Id });
export const KeyParams = Type.Object({ key: Type.String({ pattern: '^[0-9a-f]{32}$' }) });

export const SignInBody = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    signInToken: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false, description: '{ email, password } or { signInToken }' },
);
export const PasswordBody = Type.Object(
  {
    currentPassword: Type.Optional(Type.String({ maxLength: 1024 })),
    newPassword: Type.String({ minLength: 10, maxLength: 1024 }),
  },
  { additionalProperties: false },
);
export const CreateAccountBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), plan: Type.Optional(Type.String({ minLength: 1 })) },
  { additionalProperties: false },
);
export const PatchAccountBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    plan: Type.Optional(Type.String({ minLength: 1, description: 'operator only' })),
  },
  { additionalProperties: false },
);
export const AddMemberBody = Type.Object(
  {
    email: Type.String({ pattern: '^[^\\s@]+@[^\\s@]+$', maxLength: 320 }),
    role: RoleSchema,
  },
  {
    additionalProperties: false,
    description: 'An invitation: the invitee accepts it and sets their own password (nobody sets it for them)',
  },
);
export const InvitationParams = Type.Object({ id: Id, invitationId: Id });
const InvitationToken = Type.String({ minLength: 1, maxLength: 256, description: 'the token of the invitation link' });
export const InvitationTokenBody = Type.Object({ token: InvitationToken }, { additionalProperties: false });
export const AcceptInvitationBody = Type.Object(
  {
    token: InvitationToken,
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "the invitee's own: their password when the user exists, a new one (10+ characters) when not",
      }),
    ),
  },
  { additionalProperties: false },
);
export const PatchMemberBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    plan: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()], { description: 'operator only' })),
  },
  { additionalProperties: false },
);
export const PatchKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    plan: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()], { description: 'operator only' })),
    settings: Type.Optional(Type.Partial(KeySettingsSchema, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type PatchKeyInput = Static<typeof PatchKeyBody>;
export const ListKeysQuery = Type.Object({ account: Type.Optional(Id) }, { additionalProperties: false });

const Bucket = Type.Union(['1m', '5m', '15m', '1h', '1d'].map((b) => Type.Literal(b)));
const UsageScopeQuery = {
  key: Type.Optional(Type.String({ pattern: '^[0-9a-f]{32}$' })),
  account: Type.Optional(Id),
  from: Type.Optional(Type.String({ description: 'epoch ms or ISO time (default: 24 h before `to`)' })),
  to: Type.Optional(Type.String({ description: 'epoch ms or ISO time (default: now)' })),
};
export const UsageQuery = Type.Object(
  { ...UsageScopeQuery, bucket: Type.Optional(Bucket), byNetwork: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const TopMethodsQuery = Type.Object(
  { ...UsageScopeQuery, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);
export const ErrorsQuery = Type.Object(UsageScopeQuery, { additionalProperties: false });
export const RequestsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    method: Type.Optional(Type.String({ maxLength: 128 })),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  },
  { additionalProperties: false },
);

const Totals = {
  requests: Type.Number(),
  credits: Type.Number(),
  errors: Type.Number(),
  latencyMsAvg: Type.Number(),
  latencyMsMax: Type.Number(),
  bytesIn: Type.Number(),
  bytesOut: Type.Number(),
};
export const UsageTotalsSchema = Type.Object(Totals);
export const UsageResponse = Type.Object({
  from: Time,
  to: Time,
  bucket: Bucket,
  series: Type.Array(Type.Object({ at: Type.String(), network: Type.Optional(Type.String()), ...Totals })),
  totals: UsageTotalsSchema,
});
export const TopMethodsResponse = Type.Array(Type.Object({ method: Type.String(), network: Type.String(), ...Totals }));
export const ErrorsResponse = Type.Array(
  Type.Object({ status: Type.Integer(), errorCode: Type.Union([Type.Integer(), Type.Null()]), count: Type.Integer() }),
);
export const RequestRowSchema = Type.Object({
  requestId: Type.String({ description: 'the X-Request-Id the answer carried (the calls of a batch share it)' }),
  at: Type.String(),
  key: Type.String(),
  network: Type.String(),
  method: Type.String(),
  transport: Type.String({ description: 'http, ws or ipfs' }),
  status: Type.Integer(),
  errorCode: Type.Union([Type.Integer(), Type.Null()], {
    description: "the JSON-RPC error code; for ipfs rows Kubo's HTTP status, negated (-404)",
  }),
  refusal: Type.Union([Type.String(), Type.Null()]),
  latencyMs: Type.Number(),
  credits: Type.Number(),
  bytesIn: Type.Number({
    description: 'request body bytes (a batch item: its share; ipfs: what crossed the connection)',
  }),
  bytesOut: Type.Number({ description: 'response body bytes' }),
  upstream: Type.Union([Type.String(), Type.Null()]),
  failover: Type.Union([Type.Literal('partner'), Type.Null()], {
    description: '"partner" when a failover partner answered (failover protection)',
  }),
});
export const RequestsResponse = Type.Array(RequestRowSchema);
export const RequestParams = Type.Object({
  key: Type.String({ pattern: '^[0-9a-f]{32}$' }),
  requestId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const RequestResponse = Type.Object({
  requestId: Type.String(),
  calls: Type.Array(RequestRowSchema, {
    description: 'one row per call: a JSON-RPC batch has several, anything else one',
  }),
});
export const OkBody = Type.Object({ ok: Type.Boolean() });

export const StorageResponse = Type.Object({
  key: Type.String(),
  storedBytes: Type.Integer({ description: 'bytes the key stores on IPFS: the sum of the sizes of what it pins' }),
  maxStoredBytes: Type.Union([Type.Integer(), Type.Null()], {
    description:
      "this key's own quota (the config's ipfs.maxStoredBytesPerKey: every key has its own), or null without IPFS",
  }),
});

export const AccountStorageResponse = Type.Object({
  accountId: Type.String(),
  storedBytes: Type.Integer({ description: "the sum of the account's active keys' stored bytes" }),
  activeKeys: Type.Integer(),
  maxStoredBytesPerKey: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'the quota of each key (ipfs.maxStoredBytesPerKey): a key over it is refused (413), whatever the others store',
  }),
  maxStoredBytes: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'what the active keys may store together: maxStoredBytesPerKey × activeKeys (no quota of its own: it grows with each key); null without IPFS',
  }),
  keys: Type.Array(Type.Object({ key: Type.String(), name: Type.String(), storedBytes: Type.Integer() })),
});

export const ContractCheckedMethodSchema = Type.Object({
  method: Type.String({ description: 'the method as clients call it (eth_getBalance, starknet_call)' }),
  aliases: Type.Array(Type.String(), { description: 'other names of the same method (stk_call)' }),
  family: Type.String(),
  params: Type.Array(Type.String(), { description: "the method's params, in order" }),
  readsAccount: Type.Boolean({
    description:
      'the method reads the state of the address it is given (balance, nonce, code, storage): a plain wallet address must be on the list too',
  }),
  wsOnly: Type.Boolean(),
  devOnly: Type.Boolean(),
});
export const RestrictionsResponse = Type.Object({
  contracts: Type.Object({
    methods: Type.Array(ContractCheckedMethodSchema, {
      description:
        'every method the contract allowlist applies to (from the method tables): each address it names must be on the list',
    }),
    refusedPrefixes: Type.Array(
      Type.Object({ prefix: Type.String(), family: Type.String(), devOnly: Type.Boolean() }),
      { description: 'methods refused outright for a key with a contract allowlist (they can reach any contract)' },
    ),
  }),
});
