/**
 * Inside the sandbox (a network namespace with only `lo`), Wrench's own Node.js listens on 127.0.0.1 at a free port,
 * pipes every connection to the egress proxy's Unix socket, points the usual proxy variables at itself and runs the
 * command as its child, exiting as the command did. It has no more rights than the command: the boundary is the proxy
 * on the host.
 */
const FORWARDER = String.raw`
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, loopbackServices, file, ...args] = process.argv.slice(1);
const join = (inside, proxy) => {
  const end = () => { inside.destroy(); proxy.destroy(); };
  inside.on('error', end); proxy.on('error', end); inside.on('close', end); proxy.on('close', end);
  inside.pipe(proxy).pipe(inside);
};
const listen = (listener, port) => new Promise((resolve) => listener.listen(port, '127.0.0.1', resolve));
const server = net.createServer((inside) => join(inside, net.connect(socketPath)));
const listening = [listen(server, 0)];
// A service the operator allowed on the host's loopback (a registry mirror at 127.0.0.1:4873) answers at the same
// address inside: a tunnel through the proxy, which checks it like any other destination.
for (const service of loopbackServices.split(',').filter(Boolean)) {
  const port = Number(service.slice(service.lastIndexOf(':') + 1));
  const mirror = net.createServer((inside) => {
    inside.pause();
    const proxy = net.connect(socketPath, () => proxy.write('CONNECT ' + service + ' HTTP/1.1\r\nHost: ' + service + '\r\n\r\n'));
    let head = Buffer.alloc(0);
    const onData = (chunk) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      proxy.off('data', onData);
      if (!/^HTTP\/1\.1 200/.test(head.toString('latin1'))) { inside.destroy(); proxy.destroy(); return; }
      if (head.length > end + 4) inside.write(head.subarray(end + 4));
      join(inside, proxy);
      inside.resume();
    };
    proxy.on('data', onData);
    proxy.on('error', () => inside.destroy());
    inside.on('error', () => proxy.destroy());
  });
  listening.push(listen(mirror, port));
}
Promise.all(listening).then(() => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env };
  for (const name of ${JSON.stringify(proxyVariableNames())}) env[name] = url;
  env.NO_PROXY = env.no_proxy = 'localhost,127.0.0.1,::1';
  env.NODE_USE_ENV_PROXY = '1';
  const child = spawn(file, args, { stdio: 'inherit', env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => { process.stderr.write(String(error) + '\n'); process.exit(127); });
  child.on('exit', (code, signal) => {
    server.close();
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    process.exit(code ?? 1);
  });
});
`;

/** The proxy settings npm, yarn, pnpm, pip, Go, cargo, git, curl and Node's fetch read. */
export function proxyVariableNames(): string[] {
  return [
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'http_proxy',
    'https_proxy',
    'npm_config_proxy',
    'npm_config_https_proxy',
    'YARN_HTTP_PROXY',
    'YARN_HTTPS_PROXY',
    'PIP_PROXY',
    'CARGO_HTTP_PROXY',
  ];
}

/**
 * The command line that runs `command` behind the forwarder to the proxy at `socketPath`; `loopbackServices` are the
 * host loopback services the allow list names (`127.0.0.1:4873`, `localhost:4873`), served at 127.0.0.1 and the same
 * port inside.
 */
export function forwardedCommand(nodePath: string, socketPath: string, command: readonly string[], loopbackServices: readonly string[] = []): string[] {
  return [nodePath, '-e', FORWARDER, socketPath, loopbackServices.join(','), ...command];
}
