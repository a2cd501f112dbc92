import type { Config } from '../../src/config/load-config.js';
import { hostRegistries } from '../../src/sandbox/egress/host-registries.js';
import { bypassesUpstream, tunnelThroughUpstream, upstreamProxyFor } from '../../src/sandbox/egress/upstream-proxy.js';

export interface UpstreamProxyCheckResult {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
  skipped?: boolean;
}

export interface UpstreamProxyCheckOptions {
  /** Where the npm registry is read from, as the setup step's sandbox does (default: Wrench's environment and home). */
  env?: NodeJS.ProcessEnv;
  home?: string;
  timeoutMs?: number;
}

/**
 * The operator's upstream proxy (the egress proxy's in mode bwrap; in mode none commands with network are pointed at
 * it directly), asked as the setup step asks it: `CONNECT` to the npm registry the setup step
 * installs from, with the configured credentials. The proxy's own answer is what is judged (its status and time), so
 * the registry need not answer; the proxy is named as `host:port` only, never with its credentials.
 */
export async function checkUpstreamProxy(config: Config, options: UpstreamProxyCheckOptions = {}): Promise<UpstreamProxyCheckResult> {
  const name = 'Upstream proxy';
  const upstream = upstreamProxyFor({ ...config.file.sandbox.egress, caFile: config.file.sandbox.setupCaFile }, config.env);
  if (!upstream) return { name, ok: true, skipped: true, detail: 'off (sandbox.egress.upstreamProxy, HTTPS_PROXY and HTTP_PROXY unset)' };
  const { npm } = await hostRegistries(options.env ?? process.env, options.home);
  const target = `${npm.host.includes(':') ? `[${npm.host}]` : npm.host}:${npm.port}`;
  const proxy = `${upstream.display} (${upstream.setting})`;
  const direct = bypassesUpstream(upstream.noProxy, npm.host, npm.port) ? `; the setup step reaches ${target} directly (NO_PROXY names it)` : '';
  const started = performance.now();
  const tunnel = await tunnelThroughUpstream(upstream, npm.host, npm.port, options.timeoutMs ?? 10_000);
  const ms = Math.round(performance.now() - started);
  if ('socket' in tunnel) {
    tunnel.socket.destroy();
    return { name, ok: true, detail: `${proxy} answered ${tunnel.status} to CONNECT ${target} (the npm registry) in ${ms} ms${direct}` };
  }
  if ('unreachable' in tunnel)
    return {
      name,
      ok: false,
      detail: `cannot connect to the upstream proxy ${proxy}: ${tunnel.unreachable}${direct}`,
      fix: `Check the host and port in ${upstream.setting}, and that the proxy runs and can be reached from this machine`,
    };
  if (tunnel.refused.startsWith('407'))
    return {
      name,
      ok: false,
      detail: `${proxy} answered ${tunnel.refused} to CONNECT ${target}: it refused ${upstream.authorization ? 'the user and password given' : 'a request without credentials'}${direct}`,
      fix: `Put the proxy's user and password in ${upstream.setting} (http://USER:PASSWORD@host:port, special characters percent-encoded)`,
    };
  return {
    name,
    ok: false,
    detail: `${proxy} answered ${tunnel.refused} to CONNECT ${target} (the npm registry) in ${ms} ms${direct}`,
    fix: `The proxy refuses the registry the setup step installs from: ask its operators to let ${target} through, or name the proxy that does in ${upstream.setting}`,
  };
}
