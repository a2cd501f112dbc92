import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { type AgentProfile, type NoAgentProfile, type RunProfile, runBudget } from '../../../runners/pipeline/run-pipeline.js';

const configWith = (yaml: string) => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'wrench-budget-'));
  writeFileSync(path.join(cwd, 'wrench.config.yml'), yaml);
  return loadConfig({}, cwd);
};

describe('runBudget', () => {
  it('takes the token ceiling from limits.tokens, 20 million by default', () => {
    expect(runBudget({ config: loadConfig({}, mkdtempSync(path.join(tmpdir(), 'wrench-budget-'))) }, 'simple').maxTokens).toBe(20_000_000);
    const config = configWith('limits:\n  tokens: 150000\n  steps: 7\n  costUsd: 1.5\n  minutes: { simple: 2, medium: 3, complex: 4 }\n');
    expect(runBudget({ config }, 'medium')).toEqual({ maxSteps: 7, maxMillis: 180_000, maxCostUsd: 1.5, maxTokens: 150_000 });
  });

  it('refuses a token ceiling that is not a positive whole number', () => {
    expect(() => configWith('limits:\n  tokens: 0\n')).toThrow(/tokens/);
  });
});

describe('RunProfile', () => {
  it('is a profile with an agent (agent and publish required) or one without (work required), checked by the compiler', () => {
    const base = {
      start: () => undefined,
      readOnly: () => false,
      verifies: () => false,
      repository: () => ({ owner: 'acme', name: 'web' }),
      workspace: () => ({ owner: 'acme', repo: 'web', baseBranch: 'main', branch: 'b' }),
      preparing: () => ({ key: 'readingCode' }) as const,
      network: () => false,
      report: async () => undefined,
    };
    const withoutAgent: NoAgentProfile<string, string> = {
      ...base,
      kind: 'revert',
      edit: 'none',
      change: async () => undefined,
      checkingDetail: { key: 'testsAfterRevert' },
      publish: async () => 'done',
    };
    // @ts-expect-error a profile with an agent must publish what it did
    const noPublish: AgentProfile<string, unknown, string> = { ...base, kind: 'change', edit: 'agent', agent: () => ({}) as never };
    // @ts-expect-error a profile without an agent makes its edit in `change`, not in an agent stage
    const agentless: RunProfile<string, unknown, string> = { ...base, kind: 'revert', edit: 'none', agent: () => ({}) as never, publish: async () => 'x' };
    expect([withoutAgent.edit, noPublish.edit, agentless.edit]).toEqual(['none', 'agent', 'none']);
  });
});
