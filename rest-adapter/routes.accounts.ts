import { MeDocument, SetupAccountDocument } from '../schema/generated/operations';
import { route } from './route.types';

const common = { surface: 'trading', auth: 'bearer', tags: ['auth'] } as const;

/** Onboarding and the caller's identity. */
export const accountRoutes = [
  route({
    ...common,
    id: 'authSetup',
    method: 'POST',
    path: '/auth/setup',
    summary:
      'First-time onboarding: creates the user and its provisioned wallets if missing (idempotent; rate ' +
      'limited per user).',
    document: SetupAccountDocument,
    result: 'setupAccount',
    errors: [401, 429, 502],
  }),
  route({
    ...common,
    id: 'authMe',
    method: 'GET',
    path: '/auth/me',
    summary: 'The caller: user id and wallets (rate limited per user).',
    document: MeDocument,
    result: 'me',
    errors: [401, 429],
  }),
];
