import { describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../src/sandbox/bwrap-args.js';

const plan = {
  root: '/data/.wrench/workspaces/job-1',
  cwd: '/data/.wrench/workspaces/job-1/src',
  env: { PATH: '/usr/bin', HOME: '/tmp/home' },
  system: [{ path: '/usr' }, { path: '/bin', symlinkTo: 'usr/bin' }, { path: '/etc' }, { path: '/data' }],
  hidden: ['/data/.wrench', '/root', '/run'],
  command: ['bash', '-c', 'true'],
};

function pairs(args: string[], flag: string): string[] {
  return args.flatMap((arg, index) => (arg === flag ? [args[index + 1]!] : []));
}

describe('bwrapArgs', () => {
  it('binds only the system directories read-only, then hides, then binds the workspace writable on top', () => {
    const args = bwrapArgs(plan);
    expect(args).not.toContain('/root');
    expect(args.slice(0, 9)).toEqual(['--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--ro-bind', '/etc', '/etc']);
    // /root and /run are not in the root at all; a hidden place inside a shown directory is covered.
    expect(pairs(args, '--tmpfs')).toEqual(['/tmp', '/var/tmp', '/data/.wrench']);
    const bind = args.indexOf('--bind');
    expect(args.slice(bind, bind + 3)).toEqual(['--bind', plan.root, plan.root]);
    expect(bind).toBeGreaterThan(args.lastIndexOf('/data/.wrench'));
    const packs = `${plan.root}/.git/objects/pack`;
    expect(args.indexOf('--ro-bind-try', bind)).toBe(args.indexOf(packs) - 1);
    expect(pairs(args, '--ro-bind-try')).toContain(packs);
    expect(args).toContain('--dev');
    expect(pairs(args, '--proc')).toEqual(['/proc']);
    expect(pairs(args, '--remount-ro')).toEqual(['/']);
    expect(args.indexOf('--remount-ro')).toBeGreaterThan(args.lastIndexOf('--bind'));
  });

  it('masks host sockets with /dev/null and hides unlisted directories after every other mount, before the root goes read-only', () => {
    const args = bwrapArgs({
      ...plan,
      readOnlyDirs: ['/opt/runtimes/node-22'],
      hostSockets: { sockets: ['/etc/agent/agent.sock', '/opt/runtimes/node-22/debug.sock'], unlisted: ['/etc/vendor-private'] },
    });
    const masks = args.flatMap((arg, index) => (arg === '--ro-bind' && args[index + 1] === '/dev/null' ? [args[index + 2]] : []));
    expect(masks).toEqual(['/etc/agent/agent.sock', '/opt/runtimes/node-22/debug.sock']);
    // A later bind of a directory holding a socket (a runtime under /opt) would show it again: the masks come after.
    const lastMask = args.lastIndexOf('/opt/runtimes/node-22/debug.sock');
    expect(lastMask).toBeGreaterThan(args.lastIndexOf('/opt/runtimes/node-22', lastMask - 1));
    expect(lastMask).toBeGreaterThan(args.lastIndexOf(plan.root));
    expect(args.indexOf('/etc/vendor-private')).toBeGreaterThan(args.lastIndexOf(plan.root));
    expect(args[args.indexOf('/etc/vendor-private') - 1]).toBe('--tmpfs');
    expect(args.indexOf('--remount-ro')).toBeGreaterThan(lastMask);
  });

  it('without a system directory around the workspace, shows no host directory but the workspace and what is named', () => {
    const args = bwrapArgs({ ...plan, system: [{ path: '/usr' }] });
    expect(pairs(args, '--tmpfs')).toEqual(['/tmp', '/var/tmp']);
    expect(pairs(args, '--ro-bind')).toEqual(['/usr']);
    expect(pairs(args, '--bind')).toEqual([plan.root]);
  });

  it('isolates processes, IPC, hostname and network, and drops capabilities', () => {
    const args = bwrapArgs(plan);
    for (const flag of ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session', '--clearenv'])
      expect(args).toContain(flag);
    expect(pairs(args, '--cap-drop')).toEqual(['ALL']);
  });

  it('with network, keeps its own network namespace and binds only the egress proxy socket in', () => {
    const args = bwrapArgs({ ...plan, egressSocketDir: '/tmp/wrench-egress-1' });
    expect(args).toContain('--unshare-net');
    expect(pairs(args, '--ro-bind')).toContain('/tmp/wrench-egress-1');
    expect(args.indexOf('/tmp/wrench-egress-1')).toBeGreaterThan(args.lastIndexOf('/data/.wrench'));
  });

  it('sets only the given environment, the working directory, and the command last', () => {
    const args = bwrapArgs(plan);
    expect(pairs(args, '--setenv')).toEqual(['PATH', 'HOME']);
    expect(pairs(args, '--chdir')).toEqual([plan.cwd]);
    expect(args.slice(-4)).toEqual(['--', 'bash', '-c', 'true']);
    expect(pairs(args, '--dir')).toEqual(['/tmp/home']);
  });

  it('binds a given HOME writable and hides paths inside the workspace after binding it', () => {
    const args = bwrapArgs({ ...plan, home: '/var/lib/wrench/home', hidden: [...plan.hidden, `${plan.root}/.secrets`] });
    expect(pairs(args, '--bind')).toEqual([plan.root, '/var/lib/wrench/home']);
    expect(args.lastIndexOf(`${plan.root}/.secrets`)).toBeGreaterThan(args.indexOf('--bind'));
    expect(args).not.toContain('--dir');
  });

  it('shows a hidden file as empty, after the hidden directories', () => {
    const args = bwrapArgs({ ...plan, hiddenFiles: ['/etc/wrench.config.yml', '/srv/wrench.config.yml'] });
    const at = args.indexOf('/etc/wrench.config.yml');
    expect(args.slice(at - 2, at + 1)).toEqual(['--ro-bind', '/dev/null', '/etc/wrench.config.yml']);
    expect(at).toBeGreaterThan(args.lastIndexOf('/data/.wrench'));
    // Outside every shown directory the file is not there to cover.
    expect(args).not.toContain('/srv/wrench.config.yml');
  });
});
