import { describe, expect, it } from 'vitest';
import { findingsCount, reviewSections } from '../../../src/review/render-review.js';
import type { ReviewReport } from '../../../src/review/review-report.js';

const labels = ['Critical', 'Major', 'Minor'];
const report = (findings: ReviewReport['findings'], focusAreas: ReviewReport['focusAreas'] = []): ReviewReport => ({
  summary: 'Summary.',
  findings,
  focusAreas,
});

describe('reviewSections', () => {
  it('groups findings by severity in label order, each with file:line, problem and fix', () => {
    const sections = reviewSections(
      report([
        { severity: 'Minor', file: 'src/b.js', line: 9, problem: 'Unused variable.', suggestedFix: 'Remove it.' },
        {
          severity: 'Critical',
          file: 'src/a.js',
          line: 3,
          problem: 'SQL injection.',
          suggestedFix: 'Use a parameterised query:\n```js\ndb.query(sql, [id])\n```',
        },
      ]),
      labels,
    );
    expect(sections.map((s) => s.title)).toEqual(['Critical (1)', 'Major (0)', 'Minor (1)']);
    expect(sections[0]!.body).toContain('- `src/a.js:3`: SQL injection.\n  Suggested fix: Use a parameterised query:\n  ```js');
    expect(sections[1]!.body).toBe('None.');
    expect(sections[2]!.body).toContain('`src/b.js:9`');
  });

  it('says plainly when there are no findings, and lists focus areas', () => {
    const sections = reviewSections(report([], [{ area: 'security', assessment: 'Inputs are validated.' }]), labels);
    expect(sections).toEqual([
      { title: 'Findings', body: 'No findings: I found nothing to flag.' },
      { title: 'Focus areas', body: '- security: Inputs are validated.' },
    ]);
  });
});

describe('findingsCount', () => {
  it('counts by label', () => {
    expect(findingsCount(report([]), labels)).toBe('no findings');
    expect(
      findingsCount(
        report([
          { severity: 'Major', file: 'a', line: 1, problem: 'p', suggestedFix: 'f' },
          { severity: 'Critical', file: 'a', line: 2, problem: 'p', suggestedFix: 'f' },
        ]),
        labels,
      ),
    ).toBe('2 findings: 1 Critical, 1 Major');
  });
});

describe("a review in the thread's language", () => {
  it("translates Wrench's words, not the labels or the findings; English where a catalogue has none", async () => {
    const { stringsFor } = await import('../../../src/slack/strings/index.js');
    const two = report([
      { severity: 'Major', file: 'a.js', line: 1, problem: 'Off by one.', suggestedFix: 'Use <=.' },
      { severity: 'Critical', file: 'a.js', line: 2, problem: 'p', suggestedFix: 'f' },
    ]);
    expect(findingsCount(two, labels, stringsFor('ja').review)).toBe('指摘 2 件: Critical 1 件, Major 1 件');
    expect(findingsCount(two, labels, stringsFor('de').review)).toBe('2 Befunde: 1 Critical, 1 Major');
    const ja = reviewSections(two, labels, stringsFor('ja').review);
    expect(ja.map((s) => s.title)).toEqual(['Critical (1)', 'Major (1)', 'Minor (0)']);
    expect(ja[1]!.body).toBe('- `a.js:1`: Off by one.\n  修正案: Use <=.');
    expect(ja[2]!.body).toBe('なし。');
    expect(reviewSections(report([]), labels, stringsFor('de').review)).toEqual([
      { title: 'Befunde', body: 'Keine Befunde: Ich habe nichts gefunden, das zu beanstanden wäre.' },
    ]);
    const es = reviewSections(two, labels, stringsFor('es').review);
    expect(es.map((s) => s.title)).toEqual(['Critical (1)', 'Major (1)', 'Minor (0)']);
    expect(es[1]!.body).toBe('- `a.js:1`: Off by one.\n  Corrección sugerida: Use <=.');
    expect(es[2]!.body).toBe('Ninguno.');
    expect(findingsCount(two, labels, stringsFor('es').review)).toBe('2 hallazgos: 1 Critical, 1 Major');
    const fr = reviewSections(two, labels, stringsFor('fr').review);
    expect(fr.map((s) => s.title)).toEqual(['Critical (1)', 'Major (1)', 'Minor (0)']);
    expect(fr[1]!.body).toBe('- `a.js:1`: Off by one.\n  Correctif suggéré : Use <=.');
    expect(fr[2]!.body).toBe('Aucune.');
    expect(findingsCount(two, labels, stringsFor('fr').review)).toBe('2 remarques : 1 Critical, 1 Major');
    const pt = reviewSections(two, labels, stringsFor('pt').review);
    expect(pt.map((s) => s.title)).toEqual(['Critical (1)', 'Major (1)', 'Minor (0)']);
    expect(pt[1]!.body).toBe('- `a.js:1`: Off by one.\n  Correção sugerida: Use <=.');
    expect(pt[2]!.body).toBe('Nenhum.');
    expect(findingsCount(two, labels, stringsFor('pt').review)).toBe('2 apontamentos: 1 Critical, 1 Major');
    const zh = reviewSections(two, labels, stringsFor('zh').review);
    expect(zh.map((s) => s.title)).toEqual(['Critical (1)', 'Major (1)', 'Minor (0)']);
    expect(zh[1]!.body).toBe('- `a.js:1`: Off by one.\n  修复建议: Use <=.');
    expect(zh[2]!.body).toBe('无。');
    expect(findingsCount(two, labels, stringsFor('zh').review)).toBe('发现 2 个问题：Critical 1 个, Major 1 个');
  });
});
