import { request } from 'node:http';

/**
 * Calls the running gateway's admin socket. Resolves undefined when no gateway listens
 * there (the CLI then opens the database itself).
 */
export function adminRequest(
  socketPath: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () => {
        try {
          const value = JSON.parse(text);
          if (res.statusCode !== 200) reject(new Error(value.error ?? `admin socket answered ${res.statusCode}`));
          else resolve(value);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else reject(err);
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
