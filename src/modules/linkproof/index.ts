export { LinkProofService } from './linkproof.service';
export {
  createIdentityProvider,
  HttpIdentityProvider,
  SimulatedIdentityProvider,
  type IdentityProvider,
} from './identity.client';
export { PROOF_STATUSES, WALLET_PROOF_STATES } from './linkproof.models';
export type * from './linkproof.models';
