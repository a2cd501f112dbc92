import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface SecureRedis {
  password: string;
  /** `redis://:<password>@127.0.0.1:<port>`: the plain port, password required. */
  url: string;
  /** `rediss://:<password>@localhost:<tlsPort>`: TLS with a certificate for `localhost` signed by `caFile`. */
  tlsUrl: string;
  port: number;
  tlsPort: number;
  /** The throw-away certificate authority's certificate (PEM). */
  caFile: string;
  /** A second, unrelated CA: a client trusting only it must refuse the server. */
  otherCaFile: string;
  stop(): Promise<void>;
}

/**
 * A real redis-server that requires a password (`requirepass`) on a plain port and on a TLS port whose
 * certificate (CN and SAN localhost) is signed by a CA made for this test with openssl.
 */
export async function startSecureRedis(password = 'test-redis-password-0123456789'): Promise<SecureRedis> {
  const dir = await makeTempDir('wrench-secure-redis-');
  const file = (name: string) => path.join(dir.path, name);
  writeTestCertificates(dir.path);
  const [port, tlsPort] = [await freePort(), await freePort()];
  const args = ['-', '--port', String(port), '--tls-port', String(tlsPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir.path];
  args.push('--tls-cert-file', file('server.crt'), '--tls-key-file', file('server.key'), '--tls-ca-cert-file', file('ca.crt'), '--tls-auth-clients', 'no');
  const child = spawn('redis-server', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin?.end(`requirepass ${password}\n`);
  await ready(child);
  return {
    password,
    url: `redis://:${password}@127.0.0.1:${port}`,
    tlsUrl: `rediss://:${password}@localhost:${tlsPort}`,
    port,
    tlsPort,
    caFile: file('ca.crt'),
    otherCaFile: file('other-ca.crt'),
    stop: async () => {
      await stopChild(child);
      await dir.remove();
    },
  };
}

/**
 * A throw-away CA (ca.crt), an unrelated one (other-ca.crt) and a server certificate (server.crt, server.key; CN and
 * SAN localhost and 127.0.0.1) signed by the first, written into `dir` with openssl.
 */
export function writeTestCertificates(dir: string): { caFile: string; otherCaFile: string; certFile: string; keyFile: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const ca of ['ca', 'other-ca']) {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=Wrench test ${ca}`,
      '-keyout',
      file(`${ca}.key`),
      '-out',
      file(`${ca}.crt`),
    );
  }
  writeFileSync(file('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr'));
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('san.ext'),
    '-out',
    file('server.crt'),
  );

  return { caFile: file('ca.crt'), otherCaFile: file('other-ca.crt'), certFile: file('server.crt'), keyFile: file('server.key') };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data').resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
