import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagPB from '@ipld/dag-pb';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsNode, startIpfsNode } from './startIpfsNode.js';

// Issue 23: what Kubo's clients use beyond add/cat/pin, checked on the node itself: refs on the
// tree interface-ipfs-core's refs tests build (stored here as dag-pb CIDv0, what the suite means:
// its own setup relies on js-ipfs's block/put default, which Kubo changed to raw CIDv1), dns and
// /ipns/ resolution offline (an honest error at once), and UnixFS mode/mtime on add and in ls.

/** The interface-ipfs-core fixtures, read in place from ../shared (never copied into the project). */
const REFS_TREE = join(
  import.meta.dirname,
  '../../../../shared/fixtures/interface-ipfs-core-0.158.1/fixtures/refs-test',
);

let node: IpfsNode;
let repo: string;
let api: string;
let client: KuboRPCClient;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ipfs-node-commands-'));
  node = await startIpfsNode({ repo });
  api = `${node.apiUrl}/api/v0`;
  client = create({ url: api });
});

afterAll(async () => {
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

async function post(command: string, body?: FormData): Promise<{ status: number; text: string; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${api}/${command}`, { method: 'POST', ...(body ? { body } : {}) });
  return { status: res.status, text: await res.text(), ms: Date.now() - started };
}

function lines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

/** `block/put?format=v0` of one dag-pb node: its CIDv0. */
async function putPb(node: dagPB.PBNode): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(dagPB.encode(node))]), 'block');
  const out = await post('block/put?format=v0', form);
  expect(out.status).toBe(200);
  return lines<{ Key: string }>(out.text)[0]!.Key;
}

interface Stored {
  cid: string;
  /** Every CID below this one, and the names on the way (for the expected answers). */
  readonly children: Array<{ name: string; node: Stored }>;
}

/**
 * The refs tests' tree: a file is a dag-pb node whose Data is the file's bytes, a directory a
 * dag-pb node linking its entries in name order with Tsize 8.
 */
async function storeTree(path: string): Promise<Stored> {
  if (!(await stat(path)).isDirectory()) {
    return { cid: await putPb({ Data: new Uint8Array(await readFile(path)), Links: [] }), children: [] };
  }
  const children: Array<{ name: string; node: Stored }> = [];
  for (const name of (await readdir(path)).sort()) children.push({ name, node: await storeTree(join(path, name)) });
  const cid = await putPb({
    Links: children.map((c) => ({ Name: c.name, Tsize: 8, Hash: CID.parse(c.node.cid) })),
  });
  return { cid, children };
}

/** The link names below `from` in depth-first order, to `depth` levels (Infinity: all). */
function namesBelow(from: Stored, depth: number): string[] {
  if (depth <= 0) return [];
  return from.children.flatMap((c) => [c.name, ...namesBelow(c.node, depth - 1)]);
}

function allCids(from: Stored): string[] {
  return from.children.flatMap((c) => [c.node.cid, ...allCids(c.node)]);
}

const child = (from: Stored, name: string): Stored => from.children.find((c) => c.name === name)!.node;

describe('refs on interface-ipfs-core’s refs tree, stored as dag-pb', () => {
  let root: Stored;
  const refs = async (query: string) => {
    const out = await post(`refs?${query}`);
    expect(out.status).toBe(200);
    return lines<{ Ref: string; Err: string }>(out.text).map((l) => {
      expect(l.Err).toBe('');
      return l.Ref;
    });
  };

  beforeAll(async () => {
    root = await storeTree(REFS_TREE);
  });

  it('the tree is the suite’s (its root CID in the suite’s edges answers)', () => {
    expect(root.cid).toBe('Qmd5MhNjx3NSZm3L2QKG1TFvqkTRbtZwGJinqEfqpfHH7s');
    expect(root.children.map((c) => c.name)).toEqual(['animals', 'atlantic-animals', 'fruits', 'mushroom.txt']);
  });

  it('the root’s links, as <dst>, in edges and in a custom format', async () => {
    const direct = root.children.map((c) => c.node.cid);
    expect(await refs(`arg=${root.cid}`)).toEqual(direct);
    expect(await refs(`arg=${root.cid}&edges=true`)).toEqual(direct.map((d) => `${root.cid} -> ${d}`));
    expect(await refs(`arg=${root.cid}&format=${encodeURIComponent('<linkname>: <src> => <dst>')}`)).toEqual(
      root.children.map((c) => `${c.name}: ${root.cid} => ${c.node.cid}`),
    );
  });

  it('follows a path, and recurses from it', async () => {
    const animals = child(root, 'animals');
    const linkname = `format=${encodeURIComponent('<linkname>')}`;
    expect(await refs(`arg=/ipfs/${root.cid}/animals&${linkname}`)).toEqual(['land', 'sea']);
    expect(await refs(`arg=/ipfs/${root.cid}/animals/land&${linkname}`)).toEqual([
      'african.txt',
      'americas.txt',
      'australian.txt',
    ]);
    expect(await refs(`arg=/ipfs/${root.cid}/animals&${linkname}&recursive=true`)).toEqual(namesBelow(animals, 9));
  });

  it('recursive, max-depth 0 to 3, unique', async () => {
    const linkname = `format=${encodeURIComponent('<linkname>')}`;
    expect(await refs(`arg=${root.cid}&${linkname}&recursive=true`)).toEqual(namesBelow(root, 9));
    expect(await refs(`arg=${root.cid}&recursive=true&max-depth=0`)).toEqual([]);
    for (const depth of [1, 2, 3]) {
      expect(await refs(`arg=${root.cid}&${linkname}&recursive=true&max-depth=${depth}`)).toEqual(
        namesBelow(root, depth),
      );
    }
    expect(await refs(`arg=/ipfs/${root.cid}/animals&${linkname}&recursive=true&max-depth=1`)).toEqual(['land', 'sea']);
    // the tree holds the same file twice (atlantic.txt and atlantic-animals): unique lists it once
    const every = allCids(root);
    const unique = await refs(`arg=${root.cid}&recursive=true&unique=true`);
    expect(new Set(unique)).toEqual(new Set(every));
    expect(unique.length).toBe(new Set(every).size);
    expect(unique.length).toBeLessThan(every.length);
  });

  it('several paths in one call; edges with a format is refused', async () => {
    const linkname = `format=${encodeURIComponent('<linkname>')}`;
    expect(await refs(`arg=/ipfs/${root.cid}/animals&arg=/ipfs/${root.cid}/fruits&${linkname}&recursive=true`)).toEqual(
      [...namesBelow(child(root, 'animals'), 9), ...namesBelow(child(root, 'fruits'), 9)],
    );
    const out = await post(`refs?arg=${root.cid}&edges=true&${linkname}`);
    expect(out.status).toBe(400);
    expect(JSON.parse(out.text).Message).toBe('using format argument with edges is not allowed');
  });

  it('kubo-rpc-client reads refs through dag-cbor links too', async () => {
    const land = child(child(root, 'animals'), 'land');
    const map = Object.fromEntries(land.children.map((c) => [c.name, CID.parse(c.node.cid)]));
    const cbor = await client.dag.put(map, { storeCodec: 'dag-cbor' });
    const got = [];
    for await (const r of client.refs(`/ipfs/${cbor}`, { recursive: true })) got.push(r.ref);
    expect(got.sort()).toEqual(land.children.map((c) => c.node.cid).sort());
  });
});

describe('dns and /ipns/ offline: an honest error, at once', () => {
  it('dns names the domain and why nothing is resolved', async () => {
    const out = await post('dns?arg=ipfs.io');
    expect(out.status).toBe(500);
    const answer = JSON.parse(out.text) as { Message: string; Type: string };
    expect(answer.Type).toBe('error');
    // kubo-rpc-client users match on Kubo's "could not resolve name"
    expect(answer.Message).toMatch(/^could not resolve name "ipfs\.io": .*offline/);
    expect(out.ms).toBeLessThan(5_000);
  });

  it('resolve of an /ipns/ name is refused the same way; an /ipfs/ path resolves', async () => {
    const out = await post('resolve?arg=/ipns/docs.ipfs.tech');
    expect(out.status).toBe(500);
    expect(JSON.parse(out.text).Message).toMatch(/^could not resolve name "docs\.ipfs\.tech": .*offline/);
    const dir = await client.add({ path: 'r/leaf.txt', content: 'leaf' });
    const leaf = (await client.add('leaf')).cid.toString();
    expect(await client.resolve(`/ipfs/${dir.cid}/leaf.txt`)).toBe(`/ipfs/${leaf}`);
  });
});

describe('UnixFS mode and mtime on add, and in ls', () => {
  /** add one file (field name carries per-file metadata), wrapped, and ls the wrapper with types resolved. */
  async function addAndList(query: string, field = 'file') {
    const form = new FormData();
    form.append(field, new Blob(['metadata']), 'm.txt');
    const out = await post(`add?wrap-with-directory=true&${query}`, form);
    expect(out.status).toBe(200);
    const [file, wrapper] = lines<{ Name: string; Hash: string; Mode?: string; Mtime?: number }>(out.text);
    const ls = JSON.parse((await post(`ls?arg=${wrapper!.Hash}&resolve-type=true`)).text) as {
      Objects: Array<{ Links: Array<{ Name: string; Hash: string; Mode: number; ModTime: string }> }>;
    };
    return { file: file!, link: ls.Objects[0]!.Links[0]! };
  }

  it('without metadata: no mode, Go’s zero time, and the CID of a plain add', async () => {
    const { file, link } = await addAndList('');
    expect(link).toMatchObject({ Name: 'm.txt', Mode: 0, ModTime: '0001-01-01T00:00:00Z' });
    expect(file.Hash).toBe((await client.add('metadata')).cid.toString());
  });

  it('mode (a Go integer literal: 0755 is octal), mtime and mtime-nsecs are stored and listed', async () => {
    const { file, link } = await addAndList('mode=0755&mtime=1700000000&mtime-nsecs=5');
    expect(link.Mode).toBe(0o755);
    expect(link.ModTime).toBe('2023-11-14T22:13:20.000000005Z');
    // with metadata the file is a dag-pb node (no raw leaf root): another CID than a plain add
    expect(file.Hash).not.toBe((await client.add('metadata')).cid.toString());
    expect(CID.parse(file.Hash).code).toBe(dagPB.code);
  });

  it('the mode and mtime a client sends per file are stored only with preserve-mode / preserve-mtime', async () => {
    const field = 'file?mode=0600&mtime=1600000000';
    const plain = await addAndList('', field);
    expect(plain.link).toMatchObject({ Mode: 0, ModTime: '0001-01-01T00:00:00Z' });
    const kept = await addAndList('preserve-mode=true&preserve-mtime=true', field);
    expect(kept.link.Mode).toBe(0o600);
    expect(kept.link.ModTime).toBe('2020-09-13T12:26:40Z');
    const modeOnly = await addAndList('preserve-mode=true', field);
    expect(modeOnly.link).toMatchObject({ Mode: 0o600, ModTime: '0001-01-01T00:00:00Z' });
  });

  it('a bad mode or nsecs is refused with Kubo’s messages', async () => {
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob(['x']), 'x');
      return f;
    };
    const badMode = await post('add?mode=rwx', form());
    expect(badMode.status).toBe(400);
    // an option that does not parse is refused before the command runs, in plain text (as Kubo's HTTP API does)
    expect(badMode.text.trim()).toBe('Could not convert value "rwx" to type "uint" (for option "-mode")');
    const badNsecs = await post('add?mtime=1&mtime-nsecs=1000000000', form());
    expect(badNsecs.status).toBe(400);
    expect(JSON.parse(badNsecs.text).Message).toBe('mtime-nsecs must be in the range [0,999999999]');
  });

  it('kubo-rpc-client’s mode and mtime options reach the stored entries (ls shows them back)', async () => {
    // kubo-rpc-client 7 sends mode and mtime as add's options, though its AddOptions type omits them
    const options = { wrapWithDirectory: true, mode: 0o640, mtime: { secs: 1_650_000_000, nsecs: 0 } };
    const added = await client.add({ path: 'k.txt', content: 'kubo-rpc-client metadata' }, options);
    const ls = JSON.parse((await post(`ls?arg=${added.cid}&resolve-type=true`)).text) as {
      Objects: Array<{ Links: Array<{ Name: string; Mode: number; ModTime: string }> }>;
    };
    expect(ls.Objects[0]!.Links).toEqual([
      expect.objectContaining({ Name: 'k.txt', Mode: 0o640, ModTime: '2022-04-15T05:20:00Z' }),
    ]);
  });
});
