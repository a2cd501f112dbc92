import { describe, expect, it } from 'vitest';
import { createPlanTool, MAX_PLAN_STEPS, parsePlan } from '../../../src/agent/plan-tool.js';

describe('update_plan tool', () => {
  const tool = createPlanTool();
  const signal = new AbortController().signal;

  it('notes a valid plan and reads it back as steps', async () => {
    const input = { steps: [{ step: 'Fix the parser', status: 'in_progress' }] };
    expect(await tool.execute(input, { signal })).toEqual({ content: 'Plan noted.' });
    expect(parsePlan(input)).toEqual([{ step: 'Fix the parser', status: 'in_progress' }]);
  });

  it('answers a malformed plan with a tool error naming what is wrong, and shows nothing of it', async () => {
    const tooMany = { steps: Array.from({ length: MAX_PLAN_STEPS + 1 }, (_, i) => ({ step: `step ${i}`, status: 'pending' })) };
    const badStatus = { steps: [{ step: 'Fix', status: 'complete' }] };
    for (const input of [tooMany, badStatus, { steps: [] }, { steps: [{ step: '', status: 'done' }] }]) {
      const output = await tool.execute(input, { signal });
      expect(output.isError).toBe(true);
      expect(output.content).toMatch(/^The plan is not valid: steps/);
      expect(parsePlan(input)).toBeUndefined();
    }
  });
});
