import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { branchName } from '../../../src/workspace/branch-name.js';

function isValidBranch(name: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('branchName', () => {
  it('slugs the instruction without the mention', () => {
    expect(branchName('<@U0123ABC> Fix the login redirect loop', 'a1b2c3')).toBe('wrench/fix-the-login-redirect-loop-a1b2c3');
  });

  it('drops labelled mentions, channel references and links but keeps link labels', () => {
    const text = '<@U1|wrench> in <#C9|web> see <https://example.com/x|the docs> and https://foo.bar/baz then add tests';
    expect(branchName(text, 'x1')).toBe('wrench/in-see-the-docs-and-then-add-tests-x1');
  });

  it('transliterates accents and drops other scripts and punctuation', () => {
    expect(branchName('Réparer l’éditeur: “café” 日本語 & co!', 'id9')).toBe('wrench/reparer-l-editeur-cafe-co-id9');
  });

  it('cuts long instructions at a word boundary around 40 characters', () => {
    const name = branchName('Refactor the payment reconciliation service so that retries are idempotent everywhere', 'z9');
    const slug = name.slice('wrench/'.length, -'-z9'.length);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toBe('refactor-the-payment-reconciliation');
  });

  it('cuts a single huge word hard', () => {
    const slug = branchName('a'.repeat(100), 'q').slice('wrench/'.length, -2);
    expect(slug).toBe('a'.repeat(40));
  });

  it('falls back to task', () => {
    expect(branchName('<@U0123ABC>', 'abc')).toBe('wrench/task-abc');
    expect(branchName('   ...!!!  ', 'abc')).toBe('wrench/task-abc');
    expect(branchName('日本語のみ', 'abc')).toBe('wrench/task-abc');
  });

  it('sanitizes the short id', () => {
    expect(branchName('fix it', 'AB/..cd')).toBe('wrench/fix-it-ab-cd');
    expect(branchName('fix it', '')).toBe('wrench/fix-it');
  });

  it('always produces a valid git branch name', () => {
    const samples = [
      'fix..double dots',
      'trailing.lock',
      'x.lock',
      '@{upstream}',
      'back\\slash',
      'ends with slash/',
      '-leading dash',
      'ctrl\u0001char',
      'ünïcödé',
      'HEAD',
      '~^:?*[',
      '   ',
      'Add `--verbose` flag to `wrench run`',
      '*'.repeat(80),
    ];
    for (const sample of samples) expect(isValidBranch(branchName(sample, 'id1')), sample).toBe(true);
  });
});
