import type { Category } from '../src/categories.js';
import type { RunnerDeps } from './runner-deps.js';

/** The agent's commands get network only with policy `on`; dependency setup also with `setup-only`. */
export function networkFor(category: Category, deps: Pick<RunnerDeps, 'config'>, phase: 'agent' | 'setup' = 'agent'): boolean {
  const policy = deps.config.file.sandbox.networkByCategory[category] ?? deps.config.file.sandbox.network;
  return policy === 'on' || (phase === 'setup' && policy === 'setup-only');
}
