import type { RequestAuth } from '../../auth/request-auth';
import type { ExecutionPrincipal } from './execution.models';

/** The credentials of a request that asks for an order, verified only when the order needs them. */
export type ExecutionCaller = Pick<RequestAuth, 'bearer' | 'requireWallet' | 'requireUser' | 'optionalUser'>;

/**
 * The credential an order needs: `live`, the wallet-auth token (401 without it); `user`, the user bearer;
 * `optional`, the user bearer when one is sent; `either` (a position sell without a mode, which sells in the
 * position's own mode), the user bearer, else the wallet-auth token.
 */
export type CredentialNeed = 'live' | 'user' | 'optional' | 'either';

/** The principal `caller` proves for `need`; null only for `optional` without a bearer. */
export async function principalOf(caller: ExecutionCaller, need: CredentialNeed): Promise<ExecutionPrincipal | null> {
  if (need === 'either') {
    try {
      return await principalOf(caller, 'user');
    } catch (userError) {
      if (caller.bearer() === undefined) throw userError;
      return principalOf(caller, 'live').catch(() => Promise.reject(userError as Error));
    }
  }
  if (need === 'live') {
    const w = await caller.requireWallet();
    return { userId: w.userId, live: true, walletToken: caller.bearer() };
  }
  const u = need === 'user' ? await caller.requireUser() : await caller.optionalUser();
  return u ? { userId: u.userId, live: false } : null;
}
