/** An admin API answer: status, headers and the parsed body. */
export interface AdminAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly json: any;
}

/** One browser's view of the admin API: its session cookie and CSRF token, kept between calls. */
export interface AdminBrowser {
  /** The session cookie (name=value), once signed in. */
  readonly cookie: string | undefined;
  /** Any admin API call as this browser (cookie, and `x-csrf-token` on writes). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<AdminAnswer>;
  /** `POST /sessions`; on success the browser holds the session. */
  signIn(body: Record<string, string>, headers?: Record<string, string>): Promise<AdminAnswer>;
  /** `POST /invitations/accept`; on success the browser holds the session it started. */
  accept(token: string, password?: string, headers?: Record<string, string>): Promise<AdminAnswer>;
}

/**
 * A cookie-keeping client of a running gateway's admin API (`adminUrl`: `…/admin/api/v1`), for
 * tests that sign people in, invite and accept as a browser would (real fetch, real cookies).
 *
 * @example
 * const alice = adminBrowser(gw.admin.url);
 * await alice.accept(invitation.token, 'alice password 1');
 * await alice.call('POST', `/accounts/${id}/keys`, { name: 'k' });
 */
export function adminBrowser(adminUrl: string): AdminBrowser {
  let cookie: string | undefined;
  let csrf: string | undefined;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${adminUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...(csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  };
  const adopt = (answer: AdminAnswer) => {
    const set = answer.headers.get('set-cookie');
    if (answer.status === 200 && set) {
      cookie = set.split(';')[0];
      csrf = answer.json.csrfToken;
    }
    return answer;
  };
  return {
    get cookie() {
      return cookie;
    },
    call,
    signIn: async (body, headers) => adopt(await call('POST', '/sessions', body, headers)),
    accept: async (token, password, headers) =>
      adopt(
        await call('POST', '/invitations/accept', password === undefined ? { token } : { token, password }, headers),
      ),
  };
}
