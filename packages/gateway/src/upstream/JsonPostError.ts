/**
 * Why a {@link JsonPoster} post failed below HTTP: `code` is the system's (`ECONNREFUSED`,
 * `ENOTFOUND`…) when connecting failed with one, else nodegate's: `NG_CONNECT_FAILED`,
 * `NG_CONNECT_TIMEOUT`, `NG_TIMEOUT` (no answer, or a pause in it, within the timeout),
 * `NG_SOCKET` (the connection closed before the answer was whole), `NG_BAD_ANSWER` (not HTTP/1.1
 * as expected), `NG_CLOSED` (the poster was closed). The message names no URL.
 */
export class JsonPostError extends Error {
  override readonly name = 'JsonPostError';
  constructor(
    readonly code: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}
