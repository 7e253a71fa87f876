import { createHash, randomBytes } from 'node:crypto';
import { base58Decode, base58Encode } from '../../../src/modules/wallets/base58';
import { addressProblem, canonicalAddress, toChecksumAddress } from '../../../src/modules/wallets/chain-address';
import { keccak256, sponge256 } from '../../../src/modules/wallets/keccak';

describe('keccak256', () => {
  it('matches the published vectors', () => {
    expect(keccak256('').toString('hex')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(keccak256('abc').toString('hex')).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    expect(keccak256('The quick brown fox jumps over the lazy dog').toString('hex')).toBe(
      '4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15',
    );
  });

  it('with SHA3 padding equals Node’s sha3-256 across block boundaries (same permutation and sponge)', () => {
    for (const n of [0, 1, 55, 135, 136, 137, 271, 272, 273, 1000]) {
      const data = randomBytes(n);
      expect(sponge256(data, 0x06).toString('hex')).toBe(createHash('sha3-256').update(data).digest('hex'));
    }
  });
});

describe('EIP-55', () => {
  const vectors = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];
  it.each(vectors)('checksums %s', (v) => {
    expect(toChecksumAddress(v.toLowerCase())).toBe(v);
    expect(addressProblem('polygon', v)).toBeNull();
  });

  it('accepts one-case addresses, refuses a wrong mixed case and malformed ones', () => {
    expect(addressProblem('polygon', '0x52908400098527886E0F7030069857D2E4169EE7')).toBeNull();
    expect(addressProblem('polygon', '0xde709f2102306220921060314715629080e2fb77')).toBeNull();
    expect(addressProblem('polygon', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/checksum/);
    expect(addressProblem('polygon', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae')).toMatch(/40 hex/);
    expect(addressProblem('polygon', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toMatch(/40 hex/);
    // The EIP's "all lower" examples are their own checksum form.
    expect(canonicalAddress('polygon', '0xde709f2102306220921060314715629080e2fb77')).toBe(
      '0xde709f2102306220921060314715629080e2fb77',
    );
    expect(canonicalAddress('polygon', ' 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
  });
});

describe('base58 and solana addresses', () => {
  it('round-trips, keeping leading zero bytes', () => {
    for (const bytes of [Buffer.alloc(32), Buffer.from([0, 0, 1, 2, 255]), randomBytes(32)]) {
      expect(base58Decode(base58Encode(bytes))).toEqual(bytes);
    }
    expect(base58Encode(Buffer.from('hello world'))).toBe('StV1DL6CwTryKyV');
  });

  it('validates 32-byte base58 addresses', () => {
    expect(addressProblem('solana', 'So11111111111111111111111111111111111111112')).toBeNull();
    expect(addressProblem('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBeNull();
    expect(addressProblem('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10')).toMatch(/base58/);
    expect(addressProblem('solana', base58Encode(randomBytes(31).fill(1, 0, 1)))).toMatch(/32 bytes/);
    expect(addressProblem('solana', 'short')).toMatch(/32 bytes/);
  });
});
