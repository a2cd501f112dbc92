import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** The cloud metadata service (AWS, GCP, Azure, OpenStack): named for the refusal message. */
export const METADATA_ADDRESS = '169.254.169.254';

/** Every address a sandboxed step must never reach unless an operator names it: none of them is the public internet. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (some clouds' metadata services live here)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (fd00:ec2::254 is AWS's metadata over IPv6)
  ['fe80::', 10], // link-local
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): an IPv4 address at a place only the local translator knows
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/**
 * Whether a sandboxed step must not reach an address: loopback, private, link-local, multicast or otherwise not on
 * the public internet, or one of this host's own addresses (a service listening on 0.0.0.0 answers on its public
 * address too).
 */
export function isNonPublicAddress(address: string): boolean {
  return isReservedAddress(address) || hostAddresses().has(address.toLowerCase());
}

/** The addresses of this host's interfaces, read afresh (they change when interfaces come and go). */
function hostAddresses(): Set<string> {
  return new Set(
    Object.values(networkInterfaces())
      .flat()
      .flatMap((entry) => (entry ? [entry.address.toLowerCase()] : [])),
  );
}

function isReservedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const embedded = embeddedIpv4(groups);
  if (embedded.length > 0) return embedded.some(isNonPublicAddress);
  return NOT_PUBLIC.check(address, 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address carries, each judged by the IPv4 rules (the connection may well end there):
 * IPv4-compatible `::a.b.c.d`, IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::/48`, and Teredo `2001:0::/32` (its server, and its client, whose
 * address is the last 32 bits inverted). `::` and `::1` read as 0.0.0.0 and 0.0.0.1, refused all the same.
 */
export function embeddedIpv4(groups: readonly number[]): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (zeroUpTo(5) && (g5 === 0 || g5 === 0xffff)) return [v4(g6, g7)]; // compatible, mapped
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return [v4(g6, g7)]; // translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [v4(g6, g7)]; // NAT64
  if (g0 === 0x2002) return [v4(g1, g2)]; // 6to4
  if (g0 === 0x2001 && g1 === 0) return [v4(g2, g3), v4(~g6 & 0xffff, ~g7 & 0xffff)]; // Teredo: server, client
  return [];
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups, a zone dropped). */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 1 && fill !== 0) || (halves.length === 2 && fill < 1)) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}
