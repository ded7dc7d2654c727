import { LOG_FORMATS, LOG_LEVELS } from '../log/createLogger.js';
import type { CliCommand, CliOption } from './CliCommand.js';

// Every command of `nodegate`, with the options each takes: the parser refuses any other, and
// the help is made from this table, so they cannot disagree.

const opt = (name: string, value: string | undefined, help: string, multiple = false): CliOption => ({
  name,
  type: value === undefined ? 'boolean' : 'string',
  ...(value === undefined ? {} : { value }),
  ...(multiple ? { multiple } : {}),
  help,
});

/** How the `keys` and `admin` commands find the gateway (or its database). */
const ADMIN_ACCESS: readonly CliOption[] = [
  opt('data-dir', 'DIR', "the gateway's data directory (default: the config's, else .nodegate)"),
  opt('config', 'FILE', "the gateway's config file (for its data directory and database)"),
  opt('admin-url', 'URL', "a running gateway's base URL (default: the one <dataDir>/admin.json names)"),
];
const JSON_OUT = opt('json', undefined, 'print JSON instead of text');
const ACCESS_NOTE =
  'It talks to the gateway running on the data directory through its admin API, with the admin token ' +
  '(NODEGATE_ADMIN_TOKEN, else <dataDir>/admin-token); when none runs, to the database directly.';

const KEY_SETTINGS: readonly CliOption[] = [
  opt('name', 'TEXT', "the key's name"),
  opt('plan', 'NAME', "a plan for this key only (empty: the account's plan)"),
  opt('allowed-origins', 'A,B', 'browser origins allowed to use it (https://app.example.com)'),
  opt('allowed-user-agents', 'A,B', 'User-Agent substrings allowed to use it'),
  opt('allowed-contracts', 'A,B', 'contract addresses calls may touch (eth_call, eth_getLogs, eth_getBalance…)'),
  opt('allowed-methods', 'A,B', 'JSON-RPC methods (and IPFS commands) it may call'),
  opt('require-secret', 'true|false', "require the key's secret (HTTP basic auth)"),
  opt('jwt-key', 'NAME=PEMFILE', 'a public key JWTs are checked against (repeat for more; empty: none)', true),
  opt('require-jwt', 'true|false', 'require a JWT signed by one of its JWT keys'),
  opt('credits-per-second', 'N', "its own rate limit (empty: the plan's)"),
  opt('credits-per-day', 'N', "its own daily limit (empty: the plan's)"),
  opt('enable-failover', 'true|false', 'failover protection on every request (when the plan has it)'),
];

/** What a dedicated IPFS gateway's settings are set with (`gateways create` and `gateways set`). */
const GATEWAY_SETTINGS: readonly CliOption[] = [
  opt('mode', 'restricted|open', 'restricted: only what keys of the account pinned; open: any CID the node has'),
  opt(
    'allowed-origins',
    'A,B',
    'origins whose pages may load anything through it (https://app.example.com, *.example.com)',
  ),
];

/** The commands, in the order `nodegate --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [
  {
    words: ['start'],
    args: [],
    summary: 'run the gateway (without --config: the embedded defaults on 127.0.0.1:8550)',
    details:
      'Without --config it starts the embedded defaults: anvil (eth-devnet), the Starknet dev chain ' +
      '(starknet-devnet) and the IPFS node (/ipfs), an embedded database and a development key, in ' +
      '.nodegate. The terminal shows a summary, then warnings and errors; each request is a line in ' +
      '<dataDir>/logs/access.log. Ctrl-C (SIGINT) or SIGTERM stops it and its backends. With --workers N ' +
      '(N > 1) this process is the primary: it starts the backends once and N worker processes that share ' +
      'the port, restarts a worker that dies, relays SIGHUP, and stops them all.',
    options: [
      opt('config', 'FILE', 'a config file (YAML or JSON; see docs/config.md)'),
      opt('listen', 'HOST:PORT', 'where to listen (port 0: any free port)'),
      opt('data-dir', 'DIR', 'where keys, usage, chains and logs are kept'),
      opt('ready-file', 'FILE', 'once serving, write the endpoints and keys there (JSON)'),
      opt('log-level', 'LEVEL', `${LOG_LEVELS.join(' | ')} (default warn)`),
      opt('log-format', 'FORMAT', `${LOG_FORMATS.join(' | ')}: text for a terminal, json (on stdout) for a collector`),
      opt('tls-cert', 'FILE', 'serve HTTPS and WSS with this PEM certificate (with --tls-key; SIGHUP reloads)'),
      opt('tls-key', 'FILE', "the certificate's PEM private key"),
      opt('block-time', 'SECONDS', 'the embedded dev chains mine a block every SECONDS (default: on demand)'),
      opt(
        'workers',
        'N|auto',
        'gateway processes on this machine (default auto: one per core with PostgreSQL and Redis, else 1; more than 1 needs redis)',
      ),
    ],
  },
  {
    words: ['keys', 'create'],
    args: [],
    summary: 'create an API key (its secret is shown once)',
    details: ACCESS_NOTE,
    options: [
      opt('plan', 'NAME', "a plan for this key only (default: the account's)"),
      opt('name', 'TEXT', 'a name to know it by'),
      opt('account', 'ID', "the account it belongs to (default: the operator's)"),
      JSON_OUT,
      ...ADMIN_ACCESS,
    ],
  },
  {
    words: ['keys', 'list'],
    args: [],
    summary: 'list API keys',
    details: ACCESS_NOTE,
    options: [opt('account', 'ID', "only this account's keys"), JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['keys', 'show'],
    args: ['KEY'],
    summary: 'show a key: its plan, limits and restrictions',
    details: ACCESS_NOTE,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['keys', 'set'],
    args: ['KEY'],
    summary: "change a key's name, plan, limits or restrictions",
    details: `Only the settings given change; an empty value clears a list, a limit or the plan override. Lists are comma-separated. ${ACCESS_NOTE}`,
    options: [...KEY_SETTINGS, JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['keys', 'revoke'],
    args: ['KEY'],
    summary: 'revoke a key (at once, on every gateway)',
    details: ACCESS_NOTE,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'list'],
    args: [],
    summary: 'list dedicated IPFS gateways (their URLs and mode)',
    details: ACCESS_NOTE,
    options: [opt('account', 'ID', "only this account's gateways"), JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'create'],
    args: ['NAME'],
    summary: 'create a dedicated IPFS gateway: /ipfs-gateway/NAME/ipfs/<cid> (and NAME.ipfs.<domain>)',
    details:
      'NAME is 3 to 32 lower-case letters, digits and inner dashes, unique on the gateway. A new gateway is ' +
      `restricted: it serves only what keys of its account pinned (403 otherwise) until a token or an allowed origin opens it. ${ACCESS_NOTE}`,
    options: [
      ...GATEWAY_SETTINGS,
      opt('account', 'ID', "the account it belongs to (default: the operator's)"),
      JSON_OUT,
      ...ADMIN_ACCESS,
    ],
  },
  {
    words: ['gateways', 'show'],
    args: ['GATEWAY'],
    summary: "show a gateway (by name or id): its URLs, mode, origins and its account's bandwidth today",
    details: ACCESS_NOTE,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'set'],
    args: ['GATEWAY'],
    summary: "change a gateway's mode or allowed origins",
    details: `Only the settings given change; an empty --allowed-origins clears the list. ${ACCESS_NOTE}`,
    options: [...GATEWAY_SETTINGS, JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'delete'],
    args: ['GATEWAY'],
    summary: 'delete a gateway and its tokens (at once)',
    details: ACCESS_NOTE,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'tokens'],
    args: ['GATEWAY'],
    summary: "list a gateway's tokens (their ids and names; a token itself is shown once)",
    details: ACCESS_NOTE,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'add-token'],
    args: ['GATEWAY'],
    summary: 'create a gateway token (opens a restricted gateway: ?token= or X-Nodegate-Gateway-Token); shown once',
    details: ACCESS_NOTE,
    options: [opt('name', 'TEXT', 'what the token is for'), JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['gateways', 'revoke-token'],
    args: ['GATEWAY', 'TOKEN_ID'],
    summary: 'revoke a gateway token (at once)',
    details: ACCESS_NOTE,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['admin', 'sign-in-link'],
    args: [],
    summary: 'print a new one-time dashboard sign-in link for the operator (15 minutes)',
    details: `Each link signs in once; earlier links stay valid until used or expired. ${ACCESS_NOTE}`,
    options: [JSON_OUT, ...ADMIN_ACCESS],
  },
  {
    words: ['admin', 'set-password'],
    args: [],
    summary: "set the operator's dashboard password (operator@localhost)",
    details:
      'The password is asked on the terminal without echo (twice), or read from stdin when it is not a ' +
      'terminal (its first line), or from --password-file; never from the command line, where other ' +
      `users and the shell history would see it. The current password is not needed; every operator dashboard session is signed out. ${ACCESS_NOTE}`,
    options: [opt('password-file', 'FILE', 'read the password from this file (its first line)'), ...ADMIN_ACCESS],
  },
  {
    words: ['config', 'check'],
    args: ['FILE'],
    summary: 'check a config file; errors name the field',
    options: [],
  },
];

/** Commands run by a parser of their own (their `--help` is theirs). */
export const DELEGATED = { 'ipfs-node': 'run the embedded IPFS node on its own (nodegate ipfs-node --help)' } as const;
