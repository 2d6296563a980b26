/** The session cookie, set and cleared the same way by `/auth/login` and the console's login form. */
import type { Context } from 'koa';

/** Sets the session cookie: HTTP only, SameSite=Lax, Secure over HTTPS, for the whole site until it expires. */
export function setSessionCookie(ctx: Context, name: string, token: string, expiresAt: number): void {
  ctx.cookies.set(name, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    path: '/',
    expires: new Date(expiresAt),
    overwrite: true,
  });
}

/** Clears the session cookie (logout; the session itself is ended on the server by the caller). */
export function clearSessionCookie(ctx: Context, name: string): void {
  ctx.cookies.set(name, '', { httpOnly: true, sameSite: 'lax', path: '/', expires: new Date(0), overwrite: true });
}
