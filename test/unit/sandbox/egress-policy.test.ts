import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress } from '../../../src/sandbox/egress/blocked-addresses.js';
import { defaultRegistryEntries, type EgressPolicy, loopbackServices, matchDestination, parseAllowEntry } from '../../../src/sandbox/egress/egress-policy.js';
import { describeRefusal } from '../../../src/sandbox/egress/egress-proxy.js';
import { hostRegistries } from '../../../src/sandbox/egress/host-registries.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('egress policy', () => {
  const registries: EgressPolicy = {
    scope: 'registries',
    allow: [...defaultRegistryEntries(), parseAllowEntry('*.corp.example'), parseAllowEntry('127.0.0.1:4873')],
  };

  it('lets the setup step reach the default registries on 443 and 80 only, public addresses only', () => {
    expect(matchDestination(registries, 'registry.npmjs.org', 443)).toBe('public-only');
    expect(matchDestination(registries, 'Files.PythonHosted.org.', 443)).toBe('public-only');
    expect(matchDestination(registries, 'registry.npmjs.org', 6379)).toBe('not-allowed');
    expect(matchDestination(registries, 'evil.example', 443)).toBe('not-allowed');
    expect(matchDestination(registries, '169.254.169.254', 80)).toBe('not-allowed');
  });

  it('matches *.domain on subdomains only, and host:port exactly (loopback included)', () => {
    expect(matchDestination(registries, 'npm.corp.example', 443)).toBe('public-only');
    expect(matchDestination(registries, 'corp.example', 443)).toBe('not-allowed');
    expect(matchDestination(registries, 'evilcorp.example', 443)).toBe('not-allowed');
    expect(matchDestination(registries, '127.0.0.1', 4873)).toBe('named-with-port');
    expect(matchDestination(registries, '127.0.0.1', 4874)).toBe('not-allowed');
  });

  it('lets the agent under policy `on` reach any host, still only on public addresses', () => {
    expect(matchDestination({ ...registries, scope: 'public' }, 'evil.example', 8443)).toBe('public-only');
  });

  it('parses allow entries and refuses what is not a host, *.domain or host:port', () => {
    expect(parseAllowEntry('Mirror.Internal:8080')).toEqual({ host: 'mirror.internal', port: 8080 });
    expect(parseAllowEntry('[::1]:4873')).toEqual({ host: '::1', port: 4873 });
    for (const bad of ['http://x.example', 'x.example:0', 'x.example:70000', '*', 'a b', '*.', '::1'])
      expect(() => parseAllowEntry(bad), bad).toThrow(/is not a host/);
  });

  it('names the loopback services to serve inside the sandbox', () => {
    expect(loopbackServices([parseAllowEntry('localhost:4873'), parseAllowEntry('registry.npmjs.org'), parseAllowEntry('10.0.0.5:80')])).toEqual([
      'localhost:4873',
    ]);
  });

  it('says in one line why a destination was refused', () => {
    expect(describeRefusal({ host: 'evil.example', port: 443, reason: 'not-allowed' })).toBe(
      'evil.example:443: not in the egress allow list (sandbox.egress.allow)',
    );
    expect(describeRefusal({ host: 'metadata.example', port: 80, reason: 'non-public-address', address: '169.254.169.254' })).toBe(
      'metadata.example:80: resolves to 169.254.169.254, the cloud metadata address',
    );
  });
});

describe('non-public addresses', () => {
  it('refuses loopback, private, link-local, metadata and their IPv6 forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
    ])
      expect(isNonPublicAddress(address), address).toBe(true);
  });

  it('reads every IPv6 form that embeds an IPv4 address as that address', () => {
    for (const address of [
      // IPv4-compatible ::a.b.c.d (deprecated, still parsed)
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '::a9fe:a9fe',
      '0:0:0:0:0:0:c0a8:101',
      // IPv4-mapped, written out in full
      '0:0:0:0:0:FFFF:7F00:1',
      // IPv4-translated ::ffff:0:a.b.c.d
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:a9fe:a9fe',
      '0:0:0:0:ffff:0:a00:1',
      // 6to4 2002:AABB:CCDD::/48
      '2002:7f00:1::',
      '2002:7F00:0001::1',
      '2002:a9fe:a9fe::',
      '2002:c0a8:101:1::5',
      '2002:0a00:0001:0:0:0:0:1',
      // NAT64, the well-known prefix in every spelling, and the local-use prefix 64:ff9b:1::/48 (RFC 8215)
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:0:0:0:0:c0a8:101',
      '64:ff9b:1::a00:1',
      // Teredo 2001:0::/32: a private server, or a client (its address inverted in the last 32 bits) on loopback
      '2001:0:a00:1::',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:4136:e378:8000:63bf:5601:5601',
    ])
      expect(isNonPublicAddress(address), address).toBe(true);
  });

  it('lets public addresses through', () => {
    for (const address of [
      '104.16.0.34',
      '151.101.1.69',
      '172.32.0.1',
      '2606:4700::6810:22',
      '::ffff:104.16.0.34',
      '::104.16.0.34',
      '::ffff:0:6810:22',
      '2002:6810:22::1',
      '64:ff9b::6810:22',
      // Teredo with a public server (65.54.227.120) and a public client (104.16.1.1)
      '2001:0:4136:e378:8000:63bf:97ef:fefe',
    ])
      expect(isNonPublicAddress(address), address).toBe(false);
  });
});

describe('the host registry settings', () => {
  let home: TempDir;
  beforeAll(async () => {
    home = await makeTempDir('wrench-registries-home-');
    await writeFile(path.join(home.path, '.npmrc'), 'fund=false\nregistry=http://127.0.0.1:4873/\n@acme:registry=https://npm.acme.example/\n');
    await mkdir(path.join(home.path, '.config', 'pip'), { recursive: true });
    await writeFile(
      path.join(home.path, '.config', 'pip', 'pip.conf'),
      '[global]\nextra-index-url = https://pypi.acme.example/simple\n    file:///opt/wheels\n',
    );
  });
  afterAll(() => home.remove());

  it("allows the user's npmrc and pip.conf registries exactly and passes the npm registry into the sandbox", async () => {
    const found = await hostRegistries({ PIP_INDEX_URL: 'https://mirror.example:8443/simple' }, home.path);
    expect(found.allow).toEqual(
      expect.arrayContaining([
        { host: '127.0.0.1', port: 4873 },
        { host: 'npm.acme.example', port: 443 },
        { host: 'mirror.example', port: 8443 },
        { host: 'pypi.acme.example', port: 443 },
      ]),
    );
    // (The machine's own /etc/npmrc may name a cafile: passed on too, see below.)
    const { npm_config_cafile: _hostCafile, ...env } = found.env;
    expect(env).toEqual({ npm_config_registry: 'http://127.0.0.1:4873/', PIP_INDEX_URL: 'https://mirror.example:8443/simple' });
  });

  it("passes on the host npm's cafile, which the sandbox would otherwise hide with its .npmrc", async () => {
    const other = await makeTempDir('wrench-host-npmrc-');
    try {
      await writeFile(path.join(other.path, '.npmrc'), 'registry=https://npm.acme.example/\ncafile=/etc/corp/proxy-ca.pem\n');
      const found = await hostRegistries({}, other.path);
      expect(found.env).toMatchObject({ npm_config_registry: 'https://npm.acme.example/', npm_config_cafile: '/etc/corp/proxy-ca.pem' });
      expect(found.files).toEqual(['/etc/corp/proxy-ca.pem']);
    } finally {
      await other.remove();
    }
  });

  it('prefers npm_config_registry from the environment', async () => {
    const found = await hostRegistries({ npm_config_registry: 'https://npm.mirror.example/' }, home.path);
    expect(found.env.npm_config_registry).toBe('https://npm.mirror.example/');
    expect(found.allow).toContainEqual({ host: 'npm.mirror.example', port: 443 });
  });
});
