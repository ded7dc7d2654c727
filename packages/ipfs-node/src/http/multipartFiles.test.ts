import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { multipartFiles } from './multipartFiles.js';

/** A request whose body arrives in pieces of `size` bytes (to split delimiters across reads). */
function requestOf(body: Buffer, size: number, boundary = 'XyZ'): IncomingMessage {
  const pieces: Buffer[] = [];
  for (let i = 0; i < body.byteLength; i += size) pieces.push(body.subarray(i, i + size));
  const stream = Readable.from(pieces, { objectMode: false });
  return Object.assign(stream, {
    headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` },
  }) as unknown as IncomingMessage;
}

async function parse(req: IncomingMessage) {
  const out: Array<{ field: string; path: string; type: string; data: string }> = [];
  for await (const file of multipartFiles(req, new AbortController().signal)) {
    const chunks: Uint8Array[] = [];
    for await (const c of file.content) chunks.push(c);
    out.push({ field: file.field, path: file.path, type: file.type, data: Buffer.concat(chunks).toString('latin1') });
  }
  return out;
}

const body = Buffer.from(
  [
    'preamble to ignore',
    '--XyZ',
    'Content-Disposition: form-data; name="dir"; filename="d"',
    'Content-Type: application/x-directory',
    '',
    '',
    '--XyZ',
    'Content-Disposition: form-data; name="file?mode=0644"; filename="d%2Fa%20b.txt"',
    'Content-Type: application/octet-stream',
    '',
    'line one\r\n--XyY not a delimiter\r\n--Xy',
    '--XyZ',
    'Content-Disposition: form-data; name="file-2"; filename*=utf-8\'\'d%2F%C3%A9.txt',
    '',
    '',
    '--XyZ',
    'Content-Disposition: file; filename="go+style%2Bname"',
    '',
    'go',
    '--XyZ',
    'Content-Disposition: form-data; name="file-3"',
    '',
    'no file name',
    '--XyZ--',
    'epilogue',
  ].join('\r\n'),
);

describe('multipartFiles', () => {
  for (const size of [1, 3, 7, 64, 100_000]) {
    it(`parses parts, names and contents with reads of ${size} byte(s)`, async () => {
      expect(await parse(requestOf(body, size))).toEqual([
        { field: 'dir', path: 'd', type: 'directory', data: '' },
        { field: 'file', path: 'd/a b.txt', type: 'file', data: 'line one\r\n--XyY not a delimiter\r\n--Xy' },
        { field: 'file-2', path: 'd/é.txt', type: 'file', data: '' },
        { field: '', path: 'go style+name', type: 'file', data: 'go' },
        { field: 'file-3', path: '', type: 'file', data: 'no file name' },
      ]);
    });
  }

  it('skips the unread content of a part', async () => {
    const names: string[] = [];
    for await (const file of multipartFiles(requestOf(body, 5), new AbortController().signal)) names.push(file.path);
    expect(names).toEqual(['d', 'd/a b.txt', 'd/é.txt', 'go style+name', '']);
  });

  it('fails on a truncated body', async () => {
    await expect(parse(requestOf(body.subarray(0, 200), 16))).rejects.toThrow('unexpected end of request');
  });
});
