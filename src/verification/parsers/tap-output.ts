import type { TestSummary } from '../verification-types.js';
import { unique } from './output-parser.js';

const RESULT = /^(\s*)(not ok|ok)\b(?:\s+\d+)?(?:\s+-)?\s*(.*?)\s*$/;
const TOTAL = /^# (tests|pass|fail|skip|skipped|todo|cancelled)\s+(\d+)\s*$/;
const PLAN = /^\s*1\.\.\d+/;

interface TapResult {
  name: string;
  ok: boolean;
  directive?: 'skip' | 'todo';
  children: TapResult[];
}

/**
 * TAP, as node:test (Node 20 when not on a terminal), tape and others print it: "not ok 3 - name", nested
 * subtests indented, "# pass N" / "# fail N" totals. Failing names are the leaves, joined "suite > test".
 */
export function parseTap(lines: readonly string[]): TestSummary | undefined {
  const totals: Record<string, number> = {};
  for (const line of lines) {
    const [, word, count] = TOTAL.exec(line) ?? [];
    if (word !== undefined) totals[word] = Number(count);
  }
  const roots = resultTree(lines);
  const tapLike = lines.some((line) => /^TAP version \d+/.test(line) || PLAN.test(line));
  if (totals.pass === undefined && totals.fail === undefined && !(tapLike && roots.length)) return undefined;

  const failedTests = unique(failedLeaves(roots, []));
  const leaves = allLeaves(roots);
  return {
    runner: lines.some((line) => /^\s*# Subtest: /.test(line)) ? 'node-test' : 'tap',
    passed: totals.pass ?? leaves.filter((r) => r.ok && !r.directive).length,
    failed: totals.fail !== undefined ? totals.fail + (totals.cancelled ?? 0) : leaves.filter((r) => !r.ok && !r.directive).length,
    skipped: totals.skipped ?? totals.skip ?? leaves.filter((r) => r.directive).length,
    failedTests,
  };
}

/** Results grouped under their parents: a subtest's lines come before its parent's, indented deeper. */
function resultTree(lines: readonly string[]): TapResult[] {
  const pending = new Map<number, TapResult[]>();
  let inDiagnostics = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (inDiagnostics || trimmed === '---') {
      inDiagnostics = trimmed !== '...';
      continue;
    }
    const match = RESULT.exec(line);
    if (!match) continue;
    const [, leading = '', status, text = ''] = match;
    const depth = leading.length;
    const { name, directive } = splitDirective(text);
    const children = [...pending.entries()].filter(([d]) => d > depth).flatMap(([d, results]) => (pending.delete(d), results));
    const result: TapResult = { name, ok: status === 'ok', directive, children };
    pending.set(depth, [...(pending.get(depth) ?? []), result]);
  }
  const [shallowest] = [...pending.keys()].sort((a, b) => a - b);
  return shallowest === undefined ? [] : (pending.get(shallowest) ?? []);
}

function splitDirective(text: string): { name: string; directive?: 'skip' | 'todo' } {
  const [, before, word] = /^(.*?)\s*(?<!\\)#\s*(SKIP|TODO)\b.*$/i.exec(text) ?? [];
  const name = (before ?? text).replace(/\\#/g, '#').replace(/\\\\/g, '\\');
  return word === undefined ? { name } : { name, directive: word.toLowerCase() === 'skip' ? 'skip' : 'todo' };
}

function failedLeaves(results: readonly TapResult[], path: string[]): string[] {
  return results.flatMap((result) => {
    if (result.ok || result.directive) return [];
    const below = failedLeaves(result.children, [...path, result.name]);
    return below.length ? below : [[...path, result.name].join(' > ')];
  });
}

function allLeaves(results: readonly TapResult[]): TapResult[] {
  return results.flatMap((result) => (result.children.length ? allLeaves(result.children) : [result]));
}
