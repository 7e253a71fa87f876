/**
 * Keccak-256 (the pre-standard padding Ethereum uses, not SHA3-256), for EIP-55
 * address checksums. Node's crypto has SHA3 but not Keccak; this is the plain
 * sponge over Keccak-f[1600] on BigInt lanes: slow, but it hashes 40-byte
 * addresses, not bulk data. Tests check it against published vectors and,
 * through the SHA3 padding, against Node's sha3-256 for many input lengths.
 */

const MASK = (1n << 64n) - 1n;

const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];

/** Rotation offsets of lane (x, y) at index x + 5y. */
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

function rotl(v: bigint, n: number): bigint {
  if (n === 0) return v;
  return ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK;
}

function permute(a: bigint[]): void {
  const c = new Array<bigint>(5);
  const b = new Array<bigint>(25);
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x += 1) c[x] = a[x]! ^ a[x + 5]! ^ a[x + 10]! ^ a[x + 15]! ^ a[x + 20]!;
    for (let x = 0; x < 5; x += 1) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) a[x + y] = a[x + y]! ^ d;
    }
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y]!, ROTATIONS[x + 5 * y]!);
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x += 1) a[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK & b[((x + 2) % 5) + y]!);
    }
    a[0] = a[0]! ^ rc;
  }
}

/** The 256-bit-output sponge (rate 136 bytes) with the given domain padding byte. */
export function sponge256(data: Uint8Array, padByte: number): Buffer {
  const rate = 136;
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate);
  padded.set(data);
  padded[data.length] = padded[data.length]! ^ padByte;
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i += 1) {
      let lane = 0n;
      for (let k = 7; k >= 0; k -= 1) lane = (lane << 8n) | BigInt(padded[off + i * 8 + k]!);
      state[i] = state[i]! ^ lane;
    }
    permute(state);
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i += 1) {
    let lane = state[i]!;
    for (let k = 0; k < 8; k += 1) {
      out[i * 8 + k] = Number(lane & 0xffn);
      lane >>= 8n;
    }
  }
  return out;
}

/** Keccak-256 of bytes or a UTF-8 string. */
export function keccak256(data: Uint8Array | string): Buffer {
  return sponge256(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, 0x01);
}
