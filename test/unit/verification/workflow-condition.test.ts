import { describe, expect, it } from 'vitest';
import { evaluateCondition } from '../../../src/verification/workflow-condition.js';

describe('evaluateCondition: a step’s `if:` for one matrix combination', () => {
  const matrix = { node: '22', os: 'ubuntu-latest', 'node-version': '20.x' };

  it('compares matrix values as GitHub does: numbers as numbers, strings ignoring case', () => {
    expect(evaluateCondition('matrix.node == 22', matrix)).toBe(true);
    expect(evaluateCondition('matrix.node != 22', matrix)).toBe(false);
    expect(evaluateCondition('matrix.node >= 20', matrix)).toBe(true);
    expect(evaluateCondition('matrix.node < 18', matrix)).toBe(false);
    expect(evaluateCondition("matrix.os == 'Ubuntu-Latest'", matrix)).toBe(true);
    expect(evaluateCondition("${{ matrix.node-version == '20.x' }}", matrix)).toBe(true);
    expect(evaluateCondition("startsWith(matrix.os, 'ubuntu')", matrix)).toBeUndefined();
  });

  it('reads &&, ||, !, parentheses, runner.os and the status functions', () => {
    expect(evaluateCondition("matrix.node == 22 && runner.os == 'Linux'", matrix)).toBe(true);
    expect(evaluateCondition("(matrix.node == 18 || matrix.node == 20) && runner.os != 'Windows'", matrix)).toBe(false);
    expect(evaluateCondition('!cancelled() && matrix.node == 22', matrix)).toBe(true);
    expect(evaluateCondition('success()', matrix)).toBe(true);
    expect(evaluateCondition('always()', matrix)).toBe(true);
    expect(evaluateCondition('failure()', matrix)).toBe(false);
    expect(evaluateCondition(true, matrix)).toBe(true);
  });

  it('gives up on anything it cannot know: other contexts, unknown matrix keys, broken text', () => {
    expect(evaluateCondition("github.event_name == 'push'", matrix)).toBeUndefined();
    expect(evaluateCondition("matrix.node == 22 && env.CI == 'true'", matrix)).toBeUndefined();
    expect(evaluateCondition('matrix.python == 3.12', matrix)).toBeUndefined();
    expect(evaluateCondition('matrix.node ==', matrix)).toBeUndefined();
    expect(evaluateCondition('matrix.node == 22 )', matrix)).toBeUndefined();
    expect(evaluateCondition({ not: 'text' }, matrix)).toBeUndefined();
  });
});
