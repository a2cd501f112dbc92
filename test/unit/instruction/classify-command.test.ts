import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../app/cli/classify-command.js';

async function run(args: string[], stdinText = '', isTTY = false) {
  const stdin = Readable.from(stdinText ? [stdinText] : []) as Readable & { isTTY?: boolean };
  stdin.isTTY = isTTY;
  let stdout = '';
  let stderr = '';
  const code = await classifyCommand(args, { stdin, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe('wrench classify', () => {
  it('prints exactly category, complexity, verdict, missing and elements with --json', async () => {
    const { code, stdout, stderr } = await run(['--json', '<@U0BOT>', 'review', 'PR', '#91', 'in', 'acme/api']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const printed = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(['category', 'complexity', 'verdict', 'missing', 'elements']);
    expect(printed).toMatchObject({
      category: 'code-review',
      complexity: 'simple',
      verdict: 'well-formed',
      missing: [],
      elements: { references: { prNumbers: [91], repositories: ['acme/api'] } },
    });
  });

  it('reads the instruction from stdin with "-" or without TEXT', async () => {
    const text = '<@U0BOT> add payments';
    for (const args of [['--json', '-'], ['--json']]) {
      const { code, stdout } = await run(args, text);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ category: 'feature', verdict: 'ill-formed', missing: ['scope'] });
    }
  });

  it('prints a readable summary with the questions Wrench would ask', async () => {
    const { code, stdout } = await run(['something is wrong with payments, please fix']);
    expect(code).toBe(0);
    expect(stdout).toContain('Category:    bug-fixing');
    expect(stdout).toContain('Complexity:  medium (15–45 min)');
    expect(stdout).toContain('Verdict:     ill-formed');
    expect(stdout).toContain('Missing:     observed-problem, location');
    expect(stdout).toContain('Before starting, Wrench would ask:');
    expect(stdout).toMatch(/1\. What exactly goes wrong\?/);
    expect(stdout).toMatch(/2\. Where does it happen\?/);
  });

  it('prints the recognised elements of a well-formed instruction', async () => {
    const { stdout } = await run(['fix', '`isWeekend()`', 'in', 'src/dates.js:12,', 'it', 'returns', 'true', 'for', 'Fridays']);
    expect(stdout).toContain('Verdict:     well-formed');
    expect(stdout).toContain('Missing:     nothing');
    expect(stdout).toMatch(/Location:\n\s+- src\/dates\.js:12\n\s+- isWeekend/);
    expect(stdout).not.toContain('would ask');
  });

  it('prints the scoped first step for an unrealistic instruction', async () => {
    const { stdout } = await run(['rewrite the whole backend from scratch in Rust']);
    expect(stdout).toContain('Verdict:     unrealistic');
    expect(stdout).toContain('Complexity:  complex (45+ min)');
    expect(stdout).toMatch(/scoped first step:\n\s+A complete rewrite of the backend/);
  });

  it('refuses empty input with exit code 2', async () => {
    for (const [args, stdin] of [
      [['   '], ''],
      [['-'], '\n  \n'],
      [['--json'], ''],
    ] as const) {
      const { code, stdout, stderr } = await run([...args], stdin);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/empty/);
    }
  });

  it('refuses to wait on an interactive terminal without TEXT', async () => {
    const { code, stderr } = await run([], '', true);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no instruction given/);
  });

  it('refuses unknown flags with exit code 2', async () => {
    const { code, stderr } = await run(['--yaml', 'add tests']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown option "--yaml"');
    expect(stderr).toContain('Usage: wrench classify');
  });

  it('treats words after -- as text, and prints help with --help', async () => {
    expect(JSON.parse((await run(['--json', '--', '--flaky', 'tests', 'in', 'test/a.test.ts'])).stdout).elements.task).toBe('--flaky tests in test/a.test.ts');
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: wrench classify [--json] [--rules] [TEXT|-]');
  });
});

describe('wrench classify, a schedule', () => {
  it('shows the schedule it understood, then how each run is read', async () => {
    const text = '<@U0BOT> every Monday at 9:00, update the minor versions of our npm dependencies and open a PR';
    const { code, stdout } = await run(['--json', text]);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as Record<string, unknown>;
    expect(printed.schedule).toEqual({
      cron: '0 9 * * 1',
      when: 'every Monday at 9:00',
      instruction: 'update the minor versions of our npm dependencies and open a PR',
      readBy: 'rules',
    });
    const readable = await run([text]);
    expect(readable.stdout.split('\n')[0]).toBe(
      "Schedule: every Monday at 9:00 (cron 0 9 * * 1, in the requester's Slack time zone), read by the rules; each run is asked the instruction below.",
    );
    const bad = await run(['every Monday at 25:00, update the dependencies']);
    expect(bad.stdout).toMatch(/^Schedule: not understood: "25:00" is not a time of day/);
    const plain = await run(['--json', 'add a test for formatBytes in src/format.js']);
    expect(Object.keys(JSON.parse(plain.stdout) as object)).not.toContain('schedule');
  });
});
