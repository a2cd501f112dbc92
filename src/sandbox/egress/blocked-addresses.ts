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
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d): judged by that address. */
const EMBEDDED_V4 = /^(?:::ffff:|64:ff9b::)(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i;
const EMBEDDED_V4_HEX = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

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
  const dotted = EMBEDDED_V4.exec(address)?.[1];
  if (dotted !== undefined) return isNonPublicAddress(dotted);
  const hex = EMBEDDED_V4_HEX.exec(address);
  if (hex) {
    const [, highText = '', lowText = ''] = hex;
    const high = Number.parseInt(highText, 16);
    const low = Number.parseInt(lowText, 16);
    return isNonPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return NOT_PUBLIC.check(address, 'ipv6');
}
