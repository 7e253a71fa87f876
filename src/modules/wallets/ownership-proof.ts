import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';
import { base58 } from '@scure/base';
import type { Chain } from './wallets.limits';

/** What a challenge message states; the message is the exact text the wallet signs. */
export interface ChallengeFacts {
  chain: Chain;
  address: string;
  walletId: string;
  nonce: string;
  expiresAt: Date;
}

/** The one-time message an owner signs to prove control of a wallet's address. */
export function challengeMessage(f: ChallengeFacts): string {
  return [
    'Sign this message to prove that you control this wallet.',
    '',
    `Chain: ${f.chain}`,
    `Address: ${f.address}`,
    `Wallet: ${f.walletId}`,
    `Nonce: ${f.nonce}`,
    `Expires: ${f.expiresAt.toISOString()}`,
    '',
    'Signing costs nothing and sends no transaction.',
  ].join('\n');
}

/** EIP-191 version 0x45 (`personal_sign`): keccak-256 of the prefixed message. */
export function personalMessageHash(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

/** The EVM address (0x + 40 lower-case hex) of an uncompressed secp256k1 public key (65 bytes, 0x04 first). */
export function evmAddressOf(uncompressedPublicKey: Uint8Array): string {
  return `0x${bytesToHex(keccak_256(uncompressedPublicKey.subarray(1)).subarray(-20))}`;
}

const POLYGON_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** The signature formats each chain accepts, as the 400 names them. */
export const SIGNATURE_FORMATS: Record<Chain, string> = {
  polygon: 'must be a personal_sign signature: 0x and 130 hex digits (r, s, v)',
  solana: 'must be an ed25519 signature: the base58 of 64 bytes',
};

/**
 * Checks `signature` over `message` against `address`: null when it proves control of the
 * address, otherwise why not (`format` when the signature is not even well-formed).
 *
 * - polygon: EIP-191 `personal_sign` (65 bytes r‖s‖v, v 27/28 or 0/1); the signer's public
 *   key is recovered with secp256k1, hashed to its address and compared case-insensitively.
 * - solana: an ed25519 signature of the message's UTF-8 bytes, verified against the public
 *   key the address is the base58 of.
 */
export function signatureProblem(
  chain: Chain,
  address: string,
  message: string,
  signature: string,
): 'format' | 'mismatch' | null {
  if (chain === 'polygon') {
    if (!POLYGON_SIGNATURE.test(signature)) return 'format';
    const bytes = hexToBytes(signature.slice(2));
    const v = bytes[64];
    const recovery = v >= 27 ? v - 27 : v;
    if (recovery !== 0 && recovery !== 1) return 'format';
    try {
      const point = secp256k1.Signature.fromCompact(bytes.subarray(0, 64))
        .addRecoveryBit(recovery)
        .recoverPublicKey(personalMessageHash(message));
      return evmAddressOf(point.toRawBytes(false)) === address.toLowerCase() ? null : 'mismatch';
    } catch {
      // r or s out of range, or no point for r: no key signed this.
      return 'mismatch';
    }
  }
  let sig: Uint8Array;
  try {
    sig = base58.decode(signature);
  } catch {
    return 'format';
  }
  if (sig.length !== 64) return 'format';
  try {
    return ed25519.verify(sig, utf8ToBytes(message), base58.decode(address)) ? null : 'mismatch';
  } catch {
    return 'mismatch';
  }
}
