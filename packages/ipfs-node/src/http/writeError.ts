import type { ServerResponse } from 'node:http';
import { IpfsNodeError } from '../errors.js';

/** Kubo's JSON error body. */
export interface KuboErrorBody {
  Message: string;
  Code: number;
  Type: 'error';
}

/** The JSON error object written in a body or as the last NDJSON value of a stream. */
export function errorBody(err: IpfsNodeError): KuboErrorBody {
  return { Message: err.message, Code: err.code, Type: 'error' };
}

/** The error text carried by the `X-Stream-Error` trailer (one line, as Kubo sanitizes it). */
export function streamErrorText(err: IpfsNodeError): string {
  return (err.message.split(/\r?\n/)[0] ?? '').replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/**
 * The one place that maps errors to the wire before a response started:
 * request errors → 400 text; client errors (code 1) → 400 JSON; others → 500 JSON.
 * (Errors after streaming started go to the `X-Stream-Error` trailer, see `writeResult`.)
 */
export function writeError(res: ServerResponse, thrown: unknown): void {
  const err = IpfsNodeError.from(thrown);
  if (err.kind === 'request') {
    writeText(res, 400, err.message);
    return;
  }
  const body = `${JSON.stringify(errorBody(err))}\n`;
  res.writeHead(err.kind === 'client' ? 400 : 500, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/** A plain-text answer (Go's `http.Error` shape: the message and a newline). */
export function writeText(
  res: ServerResponse,
  status: number,
  message: string,
  headers?: Record<string, string>,
): void {
  const body = `${message}\n`;
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
