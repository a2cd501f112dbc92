import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readInstruction } from '../../../src/instruction/read-instruction.js';

interface Sample {
  id: string;
  category: string;
  complexity: string;
  verdict: string;
  missing?: string[];
  text: string;
}

/** The shared labelled samples live beside the repository: <repo>/../shared/samples. */
const SAMPLES_FILE = fileURLToPath(new URL('../../../../shared/samples/instructions.jsonl', import.meta.url));
const samples: Sample[] = readFileSync(SAMPLES_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as Sample);

describe('the shared labelled samples', () => {
  it('are all there', () => {
    expect(samples.length).toBeGreaterThanOrEqual(24);
  });

  it.each(samples.map((sample) => [sample.id, sample] as const))('%s reads as labelled', (_id, sample) => {
    const reading = readInstruction(sample.text);
    expect({ category: reading.category, complexity: reading.complexity, verdict: reading.verdict }).toEqual({
      category: sample.category,
      complexity: sample.complexity,
      verdict: sample.verdict,
    });
    if (sample.missing) expect(reading.missing).toEqual(sample.missing);
  });
});
