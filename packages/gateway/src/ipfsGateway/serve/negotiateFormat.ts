import { GatewayError } from '../../errors/GatewayError.js';

/** A codec response (`format=dag-json|dag-cbor|json|cbor`). */
export type CodecFormat = 'dag-json' | 'dag-cbor' | 'json' | 'cbor';

/** Which blocks a CAR holds after the ones that verify the path (trustless gateway's `dag-scope`). */
export type DagScope = 'block' | 'entity' | 'all';

/** A byte range of the entity (`entity-bytes=from:to`): negative counts from the end, `'*'` is the end. */
export interface EntityBytes {
  readonly from: number;
  readonly to: number | '*';
}

/** The CAR a request asks for (trustless gateway spec; version 1, depth-first order only). */
export interface CarRequest {
  readonly version: 1;
  readonly order: 'dfs';
  /** `car-dups=y`: a block is sent every time the walk meets it; else once. */
  readonly dups: boolean;
  readonly scope: DagScope;
  readonly entityBytes: EntityBytes | undefined;
}

/** What kind of answer a request asked for. */
export type ResponseFormat =
  | { readonly kind: 'deserialized' }
  | { readonly kind: 'raw' }
  | { readonly kind: 'car'; readonly car: CarRequest }
  | { readonly kind: 'codec'; readonly codec: CodecFormat };

/** A negotiated format and where it came from (`Content-Location` is sent when only `Accept` named it). */
export interface Negotiated {
  readonly format: ResponseFormat;
  /** The `format` value the URL lacks (the answer's `Content-Location` adds it), or undefined. */
  readonly impliedFormat: string | undefined;
}

const MEDIA: Readonly<Record<string, string>> = {
  'application/vnd.ipld.raw': 'raw',
  'application/vnd.ipld.car': 'car',
  'application/vnd.ipld.dag-json': 'dag-json',
  'application/vnd.ipld.dag-cbor': 'dag-cbor',
  'application/json': 'json',
  'application/cbor': 'cbor',
};
/** Formats of the path gateway spec this gateway does not serve. */
const UNSERVED_MEDIA = new Set(['application/x-tar', 'application/vnd.ipfs.ipns-record']);
const UNSERVED_FORMATS = new Set(['tar', 'ipns-record']);

const bad = (message: string) => new GatewayError('INVALID_REQUEST', message, { httpStatus: 400 });
const notAcceptable = (message: string) => new GatewayError('INVALID_REQUEST', message, { httpStatus: 406 });

interface MediaRange {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',').slice(0, 32)) {
    const [type = '', ...rest] = part.split(';').map((s) => s.trim());
    if (type === '') continue;
    const params = new Map<string, string>();
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0)
        params.set(
          p.slice(0, eq).trim().toLowerCase(),
          p
            .slice(eq + 1)
            .trim()
            .replace(/^"|"$/g, ''),
        );
    }
    const q = params.has('q') ? Number(params.get('q')) : 1;
    ranges.push({ type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 });
  }
  // stable: equal weights keep the client's order
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q);
}

function parseEntityBytes(text: string): EntityBytes {
  const m = /^(-?\d{1,16}):(-?\d{1,16}|\*)$/.exec(text);
  if (!m) throw bad('entity-bytes: expected from:to (integers; negative counts from the end; to may be *)');
  const from = Number(m[1]);
  const to = m[2] === '*' ? '*' : Number(m[2]);
  if (to !== '*' && to >= 0 && from >= 0 && to < from) throw bad('entity-bytes: to is before from');
  return { from, to };
}

function carRequest(query: URLSearchParams, accept: MediaRange | undefined): CarRequest {
  const pick = (name: string, param: string) => query.get(name) ?? accept?.params.get(param) ?? undefined;
  const refuse = query.has('format') || !accept ? bad : notAcceptable;
  const version = pick('car-version', 'version');
  if (version !== undefined && version !== '1') throw refuse(`CAR version ${version} is not served: version 1 only`);
  const order = pick('car-order', 'order');
  if (order !== undefined && order !== 'dfs' && order !== 'unk') {
    throw refuse(`CAR order ${order} is not served: dfs (or unk)`);
  }
  const dups = pick('car-dups', 'dups');
  if (dups !== undefined && dups !== 'y' && dups !== 'n') throw refuse('car-dups: expected y or n');
  const scopeText = query.get('dag-scope') ?? 'all';
  if (scopeText !== 'block' && scopeText !== 'entity' && scopeText !== 'all') {
    throw bad('dag-scope: expected block, entity or all');
  }
  const bytes = query.get('entity-bytes');
  const entityBytes = bytes === null ? undefined : parseEntityBytes(bytes);
  return {
    version: 1,
    order: 'dfs',
    dups: dups === 'y',
    scope: entityBytes !== undefined ? 'entity' : scopeText,
    entityBytes,
  };
}

function formatOf(name: string, query: URLSearchParams, accept: MediaRange | undefined): ResponseFormat {
  switch (name) {
    case 'raw':
      return { kind: 'raw' };
    case 'car':
      return { kind: 'car', car: carRequest(query, accept) };
    case 'dag-json':
    case 'dag-cbor':
    case 'json':
    case 'cbor':
      return { kind: 'codec', codec: name };
    default:
      throw bad(`format=${name} is not served: raw, car, dag-json, dag-cbor, json or cbor`);
  }
}

/**
 * The answer a gateway request asks for, from its `format` query parameter (which wins) or its
 * `Accept` header (path and trustless gateway specs): a deserialized answer (UnixFS files and
 * directories, or the block as its codec's type), a raw block, a CAR (with `dag-scope`,
 * `entity-bytes`, `car-version`, `car-order`, `car-dups`), or a codec conversion. Throws a 400
 * GatewayError for a bad parameter or a format not served (`tar`, `ipns-record`), 406 when
 * `Accept` names only formats this gateway does not serve.
 *
 * @example
 * negotiateFormat(new URLSearchParams('format=car&dag-scope=entity'), undefined).format.kind // 'car'
 * negotiateFormat(new URLSearchParams(), 'application/vnd.ipld.raw').impliedFormat         // 'raw'
 */
export function negotiateFormat(query: URLSearchParams, accept: string | undefined): Negotiated {
  const format = query.get('format');
  if (format !== null) {
    if (UNSERVED_FORMATS.has(format)) throw bad(`format=${format} is not served by dedicated gateways`);
    const ranges = accept === undefined ? [] : parseAccept(accept);
    const carRange = ranges.find((r) => r.type === 'application/vnd.ipld.car');
    return { format: formatOf(format, query, carRange), impliedFormat: undefined };
  }
  if (accept === undefined || accept.trim() === '')
    return { format: { kind: 'deserialized' }, impliedFormat: undefined };
  let refused: MediaRange | undefined;
  for (const range of parseAccept(accept)) {
    const name = MEDIA[range.type];
    if (name !== undefined) {
      try {
        return { format: formatOf(name, query, range), impliedFormat: name };
      } catch (err) {
        // a CAR variant not served: another of the client's choices may do
        if (err instanceof GatewayError && err.httpStatus === 406) {
          refused = range;
          continue;
        }
        throw err;
      }
    }
    if (UNSERVED_MEDIA.has(range.type)) {
      refused = range;
      continue;
    }
    return { format: { kind: 'deserialized' }, impliedFormat: undefined };
  }
  if (refused !== undefined) {
    throw notAcceptable(
      `Accept: ${refused.type} is not served here (raw blocks, CAR version 1, dag-json, dag-cbor, json, cbor, or the content itself)`,
    );
  }
  return { format: { kind: 'deserialized' }, impliedFormat: undefined };
}
