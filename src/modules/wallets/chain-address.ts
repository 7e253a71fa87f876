import { AppError } from '../../errors/app-error';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58 } from '@scure/base';
import type { Chain } from './wallets.limits';

// The chains are declared with the module's limits; named here too, beside the address rules.
export { CHAINS, type Chain } from './wallets.limits';

const EVM = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 mixed-case checksum form of an EVM address (0x + 40 hex, any case). */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(hex)).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i += 1) {
    const ch = hex[i];
    out += parseInt(hash[i], 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

/**
 * Why an address is not valid for its chain, or null when it is. EVM: 0x and 40
 * hex digits; all-lower or all-upper case carries no checksum, mixed case must
 * be the EIP-55 checksum. Solana: base58 of exactly 32 bytes.
 */
export function addressProblem(chain: Chain, address: string): string | null {
  if (chain === 'polygon') {
    if (!EVM.test(address)) return 'must be 0x and 40 hex digits';
    const body = address.slice(2);
    const uniformCase = body === body.toLowerCase() || body === body.toUpperCase();
    if (!uniformCase && toChecksumAddress(address) !== address) return 'fails the EIP-55 checksum';
    return null;
  }
  if (address.length < 32 || address.length > 44) return 'must be the base58 of 32 bytes';
  const bytes = base58Bytes(address);
  if (bytes === null) return 'must be base58 (no 0, O, I or l)';
  if (bytes.length !== 32) return 'must be the base58 of 32 bytes';
  return null;
}

/** The bytes of a base58 string; null when it is not base58. */
function base58Bytes(text: string): Uint8Array | null {
  try {
    return base58.decode(text);
  } catch {
    return null;
  }
}

/**
 * The canonical address (EIP-55 case on polygon, as given on solana); a 400
 * naming `field` when it is not valid for the chain.
 */
export function canonicalAddress(chain: Chain, address: string, field = 'address'): string {
  const trimmed = address.trim();
  const problem = addressProblem(chain, trimmed);
  if (problem) throw AppError.badRequest(field, `${problem} for ${chain}`);
  return chain === 'polygon' ? toChecksumAddress(trimmed) : trimmed;
}
