import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = path.join(ROOT, 'test/integration/service/guarded-process.ts');

function run(mode: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('process guards', () => {
  it('an unhandled rejection is logged and the process keeps serving', async () => {
    const { code, output } = await run('rejection');
    expect(output).toMatch(/"level":50.*a promise nobody awaited.*unhandled promise rejection; still serving/);
    expect(output).toContain('still serving');
    expect(code).toBe(0);
  });

  it('an uncaught exception is logged, the service stops gracefully and the process exits 1', async () => {
    const { code, output } = await run('exception');
    expect(output).toMatch(/"level":60.*kaboom.*uncaught exception; stopping/);
    expect(output).toContain('service stopped');
    expect(code).toBe(1);
  });
});
