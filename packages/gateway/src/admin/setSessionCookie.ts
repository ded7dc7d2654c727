import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie's name. */
export const SESSION_COOKIE = 'nodegate_session';

/**
 * Sets (or, with `expires` in the past, clears) the session cookie: HttpOnly, SameSite=Strict,
 * and `Secure` when the request came over https, directly or through a trusted proxy: Fastify's
 * `request.protocol` believes `X-Forwarded-Proto` only from the config's `trustedProxies`.
 *
 * @example
 * setSessionCookie(req, reply, session.id, session.expiresAt);
 */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, value: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: req.protocol === 'https',
    expires,
  });
}
