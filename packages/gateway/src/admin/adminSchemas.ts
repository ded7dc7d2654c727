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
  { description: 'Every refusal: 400 validation (naming the field), 401, 403, 404, 409, 429.' },
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
    password: Type.Optional(Type.String({ minLength: 10, maxLength: 1024, description: 'for a new user' })),
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
export const RequestsResponse = Type.Array(
  Type.Object({
    requestId: Type.String(),
    at: Type.String(),
    key: Type.String(),
    network: Type.String(),
    method: Type.String(),
    transport: Type.String(),
    status: Type.Integer(),
    errorCode: Type.Union([Type.Integer(), Type.Null()]),
    refusal: Type.Union([Type.String(), Type.Null()]),
    latencyMs: Type.Number(),
    credits: Type.Number(),
    upstream: Type.Union([Type.String(), Type.Null()]),
    failover: Type.Union([Type.Literal('partner'), Type.Null()], {
      description: '"partner" when a failover partner answered (failover protection)',
    }),
  }),
);
export const OkBody = Type.Object({ ok: Type.Boolean() });

export const StorageResponse = Type.Object({
  key: Type.String(),
  storedBytes: Type.Integer({ description: 'bytes the key stores on IPFS: the sum of the sizes of what it pins' }),
  maxStoredBytes: Type.Union([Type.Integer(), Type.Null()], { description: 'the per-key quota, or null without IPFS' }),
});
