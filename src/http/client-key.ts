import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client's per-client caps and rate limits are counted under, from its address:
 *
 * - IPv4: the address itself (`203.0.113.7`);
 * - IPv6: its /64 network, `2001:db8:1:2::/64` (lower-case hexadecimal groups without leading
 *   zeros): one subscriber usually holds a whole /64 and can use any address in it, so keying on
 *   the full address would give them 2^64 allowances. A zone id (`fe80::1%eth0`) is ignored;
 * - IPv6 that carries an IPv4 address, mapped (`::ffff:203.0.113.7`, as a dual-stack socket reports
 *   IPv4 peers) or NAT64 well-known-prefix (`64:ff9b::203.0.113.7`, RFC 6052): the IPv4 address,
 *   so it counts as that IPv4 client and not as one /64 shared by every IPv4 client;
 * - anything else (`unknown`): as it is.
 */
export function clientKeyOf(address: string): string {
  if (isIPv4(address)) return address;
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  const carriesIpv4 =
    (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) ||
    (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0));
  if (carriesIpv4) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The eight 16-bit groups of a valid IPv6 address (checked by `isIPv6` first). Expanded here:
 * Node 20's `node:net` validates IPv6 text and matches it against subnets (`BlockList`) but has no
 * parser that returns an address's groups (`SocketAddress.parse` came later), and this needs only
 * the `::` expansion and a dotted IPv4 tail.
 */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((piece) => {
      if (!piece.includes('.')) return [parseInt(piece, 16)];
      const [a, b, c, d] = piece.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const gap = address.indexOf('::');
  if (gap === -1) return parse(address);
  const head = parse(address.slice(0, gap));
  const tail = parse(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
