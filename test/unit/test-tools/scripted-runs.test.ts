import { describe, expect, it } from 'vitest';
import { bashStep, finishStep, scriptByRun } from '../../e2e/scripted-runs.js';
import { ScriptPlayer } from '../../fakes/anthropic/script-player.js';
import type { RecordedRequest } from '../../fakes/anthropic/types.js';

/** The request the agent sends for `step` of the run whose instruction holds `marker`. */
function request(marker: string, step: number): RecordedRequest {
  const messages = [{ role: 'user', content: `<instruction>${marker}: do it</instruction>` }];
  for (let i = 0; i < step; i++) messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'result' });
  return { path: '/v1/messages', headers: {}, body: { messages }, apiKey: 'k', stream: false, at: 0 };
}

describe('scriptByRun', () => {
  it('answers every step of every run however many runs there are (21 runs of 15 steps: 315 requests)', async () => {
    const runs = Object.fromEntries(
      Array.from({ length: 21 }, (_, i) => [
        `job number ${i} `,
        [...Array.from({ length: 13 }, () => bashStep('cat README.md')), finishStep(`a${i}`), finishStep(`b${i}`)],
      ]),
    );
    const player = new ScriptPlayer(scriptByRun(runs).items);
    const answered: string[] = [];
    for (const marker of Object.keys(runs)) {
      for (let step = 0; step < 15; step++) {
        const reply = await player.next(request(marker, step));
        if (reply) answered.push(`${marker}${step}`);
      }
    }
    expect(answered).toHaveLength(21 * 15);
    expect(player.remaining).toBeGreaterThan(0);
  });
});
