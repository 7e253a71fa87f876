import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { base58 } from '@scure/base';
import {
  challengeMessage,
  evmAddressOf,
  personalMessageHash,
  signatureProblem,
} from '../../../src/modules/wallets/ownership-proof';
import { polygonSigner, solanaSigner } from '../../support/wallets';

const message = challengeMessage({
  chain: 'polygon',
  address: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
  walletId: 'w-1',
  nonce: '00112233445566778899aabbccddeeff',
  expiresAt: new Date('2026-11-25T12:00:00.000Z'),
});

describe('ownership proofs', () => {
  it('derives the well-known address of private key 1', () => {
    const key = new Uint8Array(32);
    key[31] = 1;
    expect(evmAddressOf(secp256k1.getPublicKey(key, false))).toBe('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('hashes with the EIP-191 prefix (the byte length, not the character count)', () => {
    expect(Buffer.from(personalMessageHash('')).toString('hex')).toBe(
      // keccak256("\x19Ethereum Signed Message:\n0")
      '5f35dce98ba4fba25530a026ed80b2cecdaa31091ba4958b99b52ea1d068adad',
    );
    expect(personalMessageHash('é')).not.toEqual(personalMessageHash('e'));
  });

  it('states the facts in the message', () => {
    expect(message).toContain('Address: 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(message).toContain('Nonce: 00112233445566778899aabbccddeeff');
    expect(message).toContain('Expires: 2026-11-25T12:00:00.000Z');
  });

  it('polygon: the signer’s personal_sign verifies, in any address case; another key does not', () => {
    const s = polygonSigner('unit');
    const sig = s.sign(message);
    expect(signatureProblem('polygon', s.address, message, sig)).toBeNull();
    expect(signatureProblem('polygon', s.address.toLowerCase(), message, sig)).toBeNull();
    expect(signatureProblem('polygon', polygonSigner('other').address, message, sig)).toBe('mismatch');
    expect(signatureProblem('polygon', s.address, `${message}.`, sig)).toBe('mismatch');
    expect(signatureProblem('polygon', s.address, message, sig.slice(0, -2) + '1d')).toBe('format');
    expect(signatureProblem('polygon', s.address, message, sig.slice(0, -2))).toBe('format');
  });

  it('solana: a signature made by Node’s own ed25519 verifies against the base58 public key', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const address = base58.encode(raw);
    const sig = base58.encode(nodeSign(null, Buffer.from(message, 'utf8'), privateKey));
    expect(signatureProblem('solana', address, message, sig)).toBeNull();
    expect(signatureProblem('solana', solanaSigner('x').address, message, sig)).toBe('mismatch');
    expect(signatureProblem('solana', address, message, '0OIl')).toBe('format');
    expect(signatureProblem('solana', address, message, base58.encode(new Uint8Array(63)))).toBe('format');
  });
});
