import type { RequestAuth } from './request-auth';

/**
 * Who a per-client limit of a public operation counts: the user when the request carries a valid
 * user token (`user:<id>`), else the client address (`addr:<address>`). A missing, invalid or
 * other kind of credential never fails the public operation here: it is counted by address.
 */
export async function rateLimitSubject(req: {
  auth: Pick<RequestAuth, 'optionalUser'>;
  clientId: string;
}): Promise<string> {
  const user = await req.auth.optionalUser().catch(() => null);
  return user ? `user:${user.userId}` : `addr:${req.clientId}`;
}
