import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfigFile } from '../../../src/config/load-config.js';
import { describeRefusal } from '../../../src/sandbox/egress/egress-proxy.js';
import {
  bypassesUpstream,
  connectToUpstream,
  parseUpstreamProxyUrl,
  upstreamProxyCredentials,
  upstreamProxyFor,
} from '../../../src/sandbox/egress/upstream-proxy.js';
import { createRedactor } from '../../../src/security/redact.js';

describe('the upstream proxy of the egress proxy', () => {
  it('reads an operator proxy URL: host, port, Basic credentials (percent-decoded), never shown', () => {
    expect(parseUpstreamProxyUrl('http://wrench:p%40ss%3Aword@proxy.corp:3128')).toEqual({
      host: 'proxy.corp',
      port: 3128,
      tls: false,
      display: 'proxy.corp:3128',
      authorization: `Basic ${Buffer.from('wrench:p@ss:word').toString('base64')}`,
      password: 'p@ss:word',
    });
    expect(parseUpstreamProxyUrl('proxy.corp:8080')).toEqual({ host: 'proxy.corp', port: 8080, tls: false, display: 'proxy.corp:8080' });
    expect(parseUpstreamProxyUrl('http://[fd00::1]:3128/')).toMatchObject({ host: 'fd00::1', display: '[fd00::1]:3128' });
    expect(parseUpstreamProxyUrl('http://proxy.corp')).toMatchObject({ port: 80 });
    // TLS to the proxy itself, as curl and undici speak it.
    expect(parseUpstreamProxyUrl('https://wrench:pw@proxy.corp')).toMatchObject({ host: 'proxy.corp', port: 443, tls: true, display: 'proxy.corp:443' });
    expect(parseUpstreamProxyUrl('https://proxy.corp:3129')).toMatchObject({ port: 3129, tls: true });
  });

  it('refuses what is not an http:// or https:// proxy URL, saying what it must be and naming the value without its password', () => {
    expect(() => parseUpstreamProxyUrl('socks5://proxy.corp:1080')).toThrow(
      'must be an http:// or https:// proxy URL, not socks5://proxy.corp:1080 (socks5:// proxies are not supported)',
    );
    expect(() => parseUpstreamProxyUrl('socks5h://wrench:s3cret@proxy.corp:1080')).toThrow('not socks5h://wrench:***@proxy.corp:1080 (');
    expect(() => parseUpstreamProxyUrl('http://proxy.corp:3128/path')).toThrow('with no path');
    expect(() => parseUpstreamProxyUrl('http://proxy corp')).toThrow('is not a proxy URL');
  });

  it("trusts sandbox.setupCaFile for an https:// upstream's certificate only", () => {
    expect(upstreamProxyFor({ upstreamProxy: 'https://proxy.corp:3129', caFile: '/etc/corp/ca.pem' }, {})).toMatchObject({
      tls: true,
      caFile: '/etc/corp/ca.pem',
    });
    expect(upstreamProxyFor({ upstreamProxy: 'http://proxy.corp:3128', caFile: '/etc/corp/ca.pem' }, {})).not.toHaveProperty('caFile');
  });

  it('is sandbox.egress.upstreamProxy when set (empty: none), else HTTPS_PROXY, else HTTP_PROXY; noProxy, else NO_PROXY', () => {
    const env = { HTTPS_PROXY: 'http://a:b@secure.corp:3128', HTTP_PROXY: 'http://plain.corp:3128', NO_PROXY: 'localhost, .corp.example,10.0.0.0/8' };
    expect(upstreamProxyFor({}, env)).toMatchObject({
      display: 'secure.corp:3128',
      setting: 'HTTPS_PROXY',
      noProxy: ['localhost', '.corp.example', '10.0.0.0/8'],
    });
    expect(upstreamProxyFor({}, { HTTP_PROXY: env.HTTP_PROXY })).toMatchObject({ display: 'plain.corp:3128', setting: 'HTTP_PROXY', noProxy: [] });
    expect(upstreamProxyFor({ upstreamProxy: 'http://cfg.corp:8080', noProxy: ['mirror.internal'] }, env)).toMatchObject({
      display: 'cfg.corp:8080',
      setting: 'sandbox.egress.upstreamProxy',
      noProxy: ['mirror.internal'],
    });
    expect(upstreamProxyFor({}, env)?.resolvesNames).toBe(false);
    expect(upstreamProxyFor({ upstreamResolvesNames: true }, env)?.resolvesNames).toBe(true);
    expect(upstreamProxyFor({ upstreamProxy: '' }, env)).toBeUndefined();
    expect(upstreamProxyFor({}, {})).toBeUndefined();
  });

  it('sends what NO_PROXY names directly: *, names and their subdomains, host:port, IPs and CIDR ranges, on the name asked for', () => {
    const noProxy = ['localhost', '.corp.example', 'mirror.internal:8081', '10.0.0.0/8', '::1', '[fd00::5]:443'];
    expect(bypassesUpstream(noProxy, 'localhost', 4873)).toBe(true);
    expect(bypassesUpstream(noProxy, 'npm.corp.example', 443)).toBe(true);
    expect(bypassesUpstream(noProxy, 'corp.example', 443)).toBe(true);
    expect(bypassesUpstream(noProxy, 'evilcorp.example', 443)).toBe(false);
    expect(bypassesUpstream(noProxy, 'mirror.internal', 8081)).toBe(true);
    expect(bypassesUpstream(noProxy, 'mirror.internal', 443)).toBe(false);
    expect(bypassesUpstream(noProxy, '10.1.2.3', 443)).toBe(true);
    expect(bypassesUpstream(noProxy, '11.1.2.3', 443)).toBe(false);
    expect(bypassesUpstream(noProxy, '::1', 80)).toBe(true);
    expect(bypassesUpstream(noProxy, 'fd00::5', 443)).toBe(true);
    expect(bypassesUpstream(noProxy, 'fd00::5', 80)).toBe(false);
    expect(bypassesUpstream(noProxy, 'registry.npmjs.org', 443)).toBe(false);
    expect(bypassesUpstream(['*'], 'registry.npmjs.org', 443)).toBe(true);
    expect(bypassesUpstream(['*.corp.example'], 'a.corp.example', 443)).toBe(true);
  });

  it("masks the upstream's password and Basic token wherever Wrench writes", () => {
    const credentials = upstreamProxyCredentials({
      file: { sandbox: { egress: { upstreamProxy: 'http://wrench:from-the-file-1@cfg.corp:8080' } } },
      env: { HTTPS_PROXY: 'http://wrench:from-the-env-22@env.corp:3128' },
    });
    expect(credentials.map((credential) => credential.name)).toEqual([
      'sandbox.egress.upstreamProxy password',
      'sandbox.egress.upstreamProxy credentials',
      'HTTPS_PROXY password',
      'HTTPS_PROXY credentials',
    ]);
    const redact = createRedactor(credentials.map((credential) => credential.value));
    const token = Buffer.from('wrench:from-the-env-22').toString('base64');
    const text = redact(`password from-the-file-1, header Proxy-Authorization: Basic ${token}`);
    expect(text).not.toContain('from-the-file-1');
    expect(text).not.toContain(token);
    // Also as mode none's commands see it in their proxy URL: percent-encoded.
    const encoded = upstreamProxyCredentials({ file: { sandbox: { egress: { upstreamProxy: 'http://wrench:p%40ss%3Aword-1@cfg.corp:8080' } } }, env: {} });
    expect(encoded.map((credential) => credential.value)).toEqual(expect.arrayContaining(['p@ss:word-1', 'p%40ss%3Aword-1']));
    expect(createRedactor(encoded.map((credential) => credential.value))('printed p%40ss%3Aword-1')).toBe('printed [redacted]');
  });

  it('names the upstream, never its credentials, in a refusal', () => {
    const upstream = upstreamProxyFor({}, { HTTPS_PROXY: 'http://wrench:hunter22@proxy.corp:3128' });
    const refusal = {
      host: 'registry.npmjs.org',
      port: 443,
      reason: 'upstream-refused' as const,
      upstream: upstream?.display,
      upstreamSetting: upstream?.setting,
      upstreamAnswer: '407 Proxy Authentication Required',
    };
    expect(describeRefusal(refusal)).toBe(
      'registry.npmjs.org:443: the upstream proxy proxy.corp:3128 (HTTPS_PROXY) answered 407 Proxy Authentication Required',
    );
    expect(describeRefusal({ ...refusal, reason: 'upstream-unreachable', upstreamAnswer: 'ECONNREFUSED' })).toBe(
      'registry.npmjs.org:443: the upstream proxy proxy.corp:3128 (HTTPS_PROXY) could not be reached (ECONNREFUSED)',
    );
  });

  it('is checked at start-up: a bad URL in the file or the environment is refused by name', () => {
    const refusal = (() => {
      try {
        parseConfigFile({ sandbox: { egress: { upstreamProxy: 'socks5://wrench:s3cret@proxy.corp:1080' } } });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(refusal).toMatch(/sandbox\.egress\.upstreamProxy.*must be an http:\/\/ or https:\/\/ proxy URL, not socks5:\/\/wrench:\*\*\*@proxy\.corp:1080/s);
    expect(refusal).not.toContain('s3cret');
    expect(parseConfigFile({ sandbox: { egress: { upstreamProxy: 'https://proxy.corp:3129' } } }).sandbox.egress.upstreamProxy).toBe('https://proxy.corp:3129');
    expect(parseConfigFile({ sandbox: { egress: { upstreamProxy: '', noProxy: ['localhost'] } } }).sandbox.egress).toEqual({
      allow: [],
      upstreamProxy: '',
      noProxy: ['localhost'],
    });
    expect(() => loadConfig({ HTTPS_PROXY: 'socks5://proxy.corp:1080' }, '/nonexistent')).toThrow(
      /HTTPS_PROXY must be an http:\/\/ or https:\/\/ proxy URL, not socks5:\/\/proxy\.corp:1080/,
    );
    // The lower-case spellings are read too; the upper-case one wins.
    expect(loadConfig({ https_proxy: 'http://lower.corp:3128', no_proxy: 'localhost' }, '/nonexistent').env).toMatchObject({
      HTTPS_PROXY: 'http://lower.corp:3128',
      NO_PROXY: 'localhost',
    });
    expect(loadConfig({ HTTPS_PROXY: 'http://upper.corp:3128', https_proxy: 'http://lower.corp:3128' }, '/nonexistent').env.HTTPS_PROXY).toBe(
      'http://upper.corp:3128',
    );
  });

  it("says an https:// upstream's CA file cannot be read, each time it is asked", async () => {
    const upstream = { ...upstreamProxyFor({ upstreamProxy: 'https://proxy.corp:3129', caFile: '/nonexistent/corp-ca.pem' }, {})! };
    for (let i = 0; i < 2; i++)
      await expect(connectToUpstream(upstream, 1000)).rejects.toThrow('its CA file /nonexistent/corp-ca.pem (sandbox.setupCaFile) cannot be read (ENOENT)');
  });
});
