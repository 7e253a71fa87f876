import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { addressProblem, canonicalAddress, toChecksumAddress } from '../../../src/modules/wallets/chain-address';

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

describe('solana addresses', () => {
  it('validates 32-byte base58 addresses', () => {
    expect(addressProblem('solana', 'So11111111111111111111111111111111111111112')).toBeNull();
    expect(addressProblem('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBeNull();
    expect(addressProblem('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10')).toMatch(/base58/);
    expect(addressProblem('solana', base58.encode(randomBytes(31).fill(1, 0, 1)))).toMatch(/32 bytes/);
    expect(addressProblem('solana', 'short')).toMatch(/32 bytes/);
  });
});
