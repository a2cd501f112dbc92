import { describe, expect, it } from 'vitest';
import { directProxyEnv } from '../../../src/sandbox/egress/direct-proxy-env.js';
import { proxyVariableNames } from '../../../src/sandbox/egress/sandbox-forwarder.js';
import { upstreamProxyFor } from '../../../src/sandbox/egress/upstream-proxy.js';

/** Mode `none`: a command with network is pointed at the operator's proxy itself (there is no egress proxy). */
describe('the proxy settings of a command in mode none', () => {
  it('names the proxy with its credentials in every variable the bwrap forwarder sets, and NO_PROXY with loopback and noProxy', () => {
    const upstream = upstreamProxyFor({ upstreamProxy: 'http://wrench:p%40ss%3Aword@proxy.corp:3128', noProxy: ['.corp.example', '10.0.0.0/8'] }, {});
    const env = directProxyEnv(upstream!);
    for (const name of proxyVariableNames()) expect(env[name], name).toBe('http://wrench:p%40ss%3Aword@proxy.corp:3128');
    expect(env).toMatchObject({
      HTTPS_PROXY: 'http://wrench:p%40ss%3Aword@proxy.corp:3128',
      https_proxy: 'http://wrench:p%40ss%3Aword@proxy.corp:3128',
      npm_config_https_proxy: 'http://wrench:p%40ss%3Aword@proxy.corp:3128',
      NO_PROXY: 'localhost,127.0.0.1,::1,.corp.example,10.0.0.0/8',
      no_proxy: 'localhost,127.0.0.1,::1,.corp.example,10.0.0.0/8',
      NODE_USE_ENV_PROXY: '1',
    });
    expect(new URL(env.HTTPS_PROXY!).password).toBe('p%40ss%3Aword');
  });

  it('keeps the scheme of an https:// proxy, an IPv6 address in brackets, and no credentials when there are none', () => {
    expect(directProxyEnv(upstreamProxyFor({ upstreamProxy: 'https://proxy.corp:3129' }, {})!).HTTPS_PROXY).toBe('https://proxy.corp:3129');
    expect(directProxyEnv(upstreamProxyFor({ upstreamProxy: 'http://u@[fd00::1]:3128' }, {})!).HTTP_PROXY).toBe('http://u@[fd00::1]:3128');
    // Wrench's own environment, as the default: with NO_PROXY from it.
    const fromEnv = directProxyEnv(upstreamProxyFor({}, { HTTPS_PROXY: 'proxy.corp:8080', NO_PROXY: 'localhost,.internal' })!);
    expect(fromEnv).toMatchObject({ HTTPS_PROXY: 'http://proxy.corp:8080', NO_PROXY: 'localhost,127.0.0.1,::1,.internal' });
    expect(fromEnv).not.toHaveProperty('GIT_PROXY_SSL_CAINFO');
    expect(directProxyEnv(upstreamProxyFor({ upstreamProxy: 'proxy.corp:8080', noProxy: ['.corp', '*'] }, {})!).NO_PROXY).toBe('*');
  });

  it("names sandbox.setupCaFile for git's check of an https:// proxy's certificate (the CA variables serve the others)", () => {
    const upstream = upstreamProxyFor({ upstreamProxy: 'https://proxy.corp:3129', caFile: '/etc/corp/ca.pem' }, {});
    expect(directProxyEnv(upstream!).GIT_PROXY_SSL_CAINFO).toBe('/etc/corp/ca.pem');
    expect(directProxyEnv(upstreamProxyFor({ upstreamProxy: 'http://proxy.corp:3128', caFile: '/etc/corp/ca.pem' }, {})!)).not.toHaveProperty(
      'GIT_PROXY_SSL_CAINFO',
    );
  });
});
