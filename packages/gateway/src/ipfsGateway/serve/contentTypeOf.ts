/** Content types by file extension (lower case, without the dot): what browsers need to render a site. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  webmanifest: 'application/manifest+json',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  opus: 'audio/opus',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  car: 'application/vnd.ipld.car',
};

/**
 * The content type a file name implies by its extension, or undefined.
 *
 * @example
 * typeByName('index.html') // 'text/html; charset=utf-8'
 */
export function typeByName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const dot = name.lastIndexOf('.');
  if (dot < 0 || dot === name.length - 1) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, text: string, at = 0) =>
  startsWith(
    b,
    Array.from(text, (c) => c.charCodeAt(0)),
    at,
  );

const HTML_TAGS = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

/**
 * The content type of a file's first bytes (at most 512 are read), in the spirit of the WHATWG
 * MIME sniffing rules: images, audio, video, fonts, archives, PDF, HTML, SVG and XML by their
 * signatures, then `text/plain` for bytes that hold no binary control characters, else
 * `application/octet-stream`.
 *
 * @example
 * sniffType(new TextEncoder().encode('<!DOCTYPE html><p>hi')) // 'text/html; charset=utf-8'
 */
export function sniffType(head: Uint8Array): string {
  const b = head.subarray(0, 512);
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(b, 'GIF87a') || ascii(b, 'GIF89a')) return 'image/gif';
  if (ascii(b, 'RIFF') && ascii(b, 'WEBP', 8)) return 'image/webp';
  if (ascii(b, 'RIFF') && ascii(b, 'WAVE', 8)) return 'audio/wav';
  if (startsWith(b, [0x00, 0x00, 0x01, 0x00])) return 'image/x-icon';
  if (ascii(b, 'BM')) return 'image/bmp';
  if (ascii(b, 'ftyp', 4)) {
    if (ascii(b, 'avif', 8)) return 'image/avif';
    return 'video/mp4';
  }
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (ascii(b, 'OggS')) return 'application/ogg';
  if (ascii(b, 'ID3') || startsWith(b, [0xff, 0xfb])) return 'audio/mpeg';
  if (ascii(b, 'fLaC')) return 'audio/flac';
  if (ascii(b, 'wOFF')) return 'font/woff';
  if (ascii(b, 'wOF2')) return 'font/woff2';
  if (ascii(b, '%PDF-')) return 'application/pdf';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (startsWith(b, [0x1f, 0x8b, 0x08])) return 'application/gzip';
  if (startsWith(b, [0x00, 0x61, 0x73, 0x6d])) return 'application/wasm';
  // markup: skip a BOM and leading white space, compare case-insensitively
  let at = startsWith(b, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < b.length && (b[at] === 0x20 || b[at] === 0x09 || b[at] === 0x0a || b[at] === 0x0d || b[at] === 0x0c))
    at++;
  const text = Buffer.from(b.subarray(at, at + 256))
    .toString('latin1')
    .toLowerCase();
  for (const tag of HTML_TAGS) {
    if (!text.startsWith(tag)) continue;
    const next = text.charCodeAt(tag.length);
    if (tag === '<!--' || Number.isNaN(next) || next === 0x20 || next === 0x3e) return 'text/html; charset=utf-8';
  }
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'image/svg+xml';
  if (text.startsWith('<?xml')) return 'application/xml';
  for (const c of b) {
    // binary control characters (not tab, line feed, form feed, carriage return, escape)
    if (c <= 0x08 || c === 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f)) {
      return 'application/octet-stream';
    }
  }
  return 'text/plain; charset=utf-8';
}
