import { clientKeyOf } from '../../../src/http/client-key';
import { clientAddressOf } from '../../../src/http/stream-limits';

describe('clientKeyOf: the key per-client caps and rate limits count under', () => {
  it('keeps an IPv4 address whole', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('203.0.113.8')).toBe('203.0.113.8');
  });

  it('gives every address of one IPv6 /64 one key, whatever its written form', () => {
    const sameSlash64 = [
      '2001:db8:1:2::1',
      '2001:db8:1:2::abcd',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF',
      '2001:db8:1:2:1:2:3:4',
      '2001:db8:1:2:aaaa::',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2:0:0:192.0.2.1',
      '2001:db8:1:2::c000:201',
    ];
    const keys = new Set(sameSlash64.map(clientKeyOf));
    expect([...keys]).toEqual(['2001:db8:1:2::/64']);
  });

  it('gives another /64 another key', () => {
    expect(clientKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('fe80::1%lo0')).toBe('fe80:0:0:0::/64');
    expect(clientKeyOf('2001:db8:1:3::1')).not.toBe(clientKeyOf('2001:db8:1:2::1'));
  });

  it('counts an IPv4-mapped or NAT64 address as its IPv4 address', () => {
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKeyOf('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('64:ff9b::203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::ffff:203.0.113.8')).not.toBe(clientKeyOf('::ffff:203.0.113.7'));
  });

  it('leaves what is not an address as it is', () => {
    expect(clientKeyOf('unknown')).toBe('unknown');
    expect(clientKeyOf('2001:db8::1::2')).toBe('2001:db8::1::2');
    expect(clientKeyOf('')).toBe('');
  });

  it('is what a request counts as: req.ip when set, else the socket peer', () => {
    expect(clientAddressOf({ ip: '2001:db8:1:2::5', socket: { remoteAddress: '127.0.0.1' } })).toBe(
      '2001:db8:1:2::/64',
    );
    expect(clientAddressOf({ socket: { remoteAddress: '::ffff:127.0.0.1' } })).toBe('127.0.0.1');
    expect(clientAddressOf({ socket: {} })).toBe('unknown');
  });
});
