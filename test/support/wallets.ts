import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';
import { utf8ToBytes } from '@noble/hashes/utils';
import { base58 } from '@scure/base';
import { toChecksumAddress } from '../../src/modules/wallets/chain-address';
import { evmAddressOf, personalMessageHash } from '../../src/modules/wallets/ownership-proof';
import type { HttpResult, UserClient } from './http';

/** A polygon wallet address of one repeated hex character (`wallet('a')` is `0xaaaa…a`): readable, sorts by it. */
export function wallet(char: string): string {
  return `0x${char.repeat(40)}`;
}

/** {@link wallet} for each character, as a tuple to destructure: `const [A, B] = wallets('a', 'b')`. */
export function wallets<const T extends readonly string[]>(...chars: T): { [K in keyof T]: string } {
  return chars.map(wallet) as { [K in keyof T]: string };
}

/** A key pair that signs ownership challenges as a wallet would, for tests that sign for real. */
export interface TestSigner {
  chain: 'polygon' | 'solana';
  /** polygon: EIP-55 checksum case; solana: base58 of the public key. */
  address: string;
  /** polygon: EIP-191 personal_sign (0x + r‖s‖v hex, v 27/28); solana: ed25519, base58. */
  sign(message: string): string;
}

const seedBytes = (seed: string) => sha256(utf8ToBytes(`test-signer|${seed}`));

/** A polygon (secp256k1) signer whose key is derived from `seed`. */
export function polygonSigner(seed: string): TestSigner {
  const key = seedBytes(seed);
  const address = toChecksumAddress(evmAddressOf(secp256k1.getPublicKey(key, false)));
  return {
    chain: 'polygon',
    address,
    sign(message) {
      const sig = secp256k1.sign(personalMessageHash(message), key);
      return `0x${sig.toCompactHex()}${(27 + sig.recovery).toString(16)}`;
    },
  };
}

/**
 * A polygon signer whose lower-case address starts with `0x` + `hexPrefix` (tries seeds in turn:
 * about 16 per hex digit), for tests whose trader ids must sort in a given order.
 */
export function polygonSignerStartingWith(hexPrefix: string): TestSigner {
  for (let i = 0; ; i += 1) {
    const s = polygonSigner(`${hexPrefix}|${i}`);
    if (s.address.toLowerCase().startsWith(`0x${hexPrefix.toLowerCase()}`)) return s;
  }
}

/** A solana (ed25519) signer whose key is derived from `seed`. */
export function solanaSigner(seed: string): TestSigner {
  const key = seedBytes(seed);
  return {
    chain: 'solana',
    address: base58.encode(ed25519.getPublicKey(key)),
    sign: (message) => base58.encode(ed25519.sign(utf8ToBytes(message), key)),
  };
}

/** Asks for a challenge on the caller's wallet, signs it with `signer` and verifies; returns the verify answer. */
export async function verifyWallet(user: UserClient, walletId: string, signer: TestSigner): Promise<HttpResult> {
  const challenge = await user.post(`/api/wallets/${walletId}/challenge`);
  if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status} ${challenge.text}`);
  const { message } = challenge.body as { message: string };
  return user.post(`/api/wallets/${walletId}/verify`, { signature: signer.sign(message) });
}

/**
 * Imports `signer`'s address for the caller and verifies it by signing its challenge, as an owner
 * would; returns the verified wallet. Imported wallets count in public figures only once verified.
 */
export async function importVerified(user: UserClient, signer: TestSigner): Promise<{ id: string; address: string }> {
  const imported = await user.post('/api/wallets/import', { chain: signer.chain, address: signer.address });
  if (imported.status !== 201) throw new Error(`import: ${imported.status} ${imported.text}`);
  const { id } = imported.body as { id: string };
  const verified = await verifyWallet(user, id, signer);
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
  return verified.body as { id: string; address: string };
}
