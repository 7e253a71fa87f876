export { LinkProofService } from './linkproof.service';
export {
  createIdentityProvider,
  HttpIdentityProvider,
  SimulatedIdentityProvider,
  PROOF_STATUSES,
  type IdentityProvider,
  type ProofStatus,
} from './identity.client';
export type * from './linkproof.models';
