import { describe, expect, it } from 'vitest';
import { renderTriageReport, triageReportMrkdwn, type TriageReportView } from '../../../src/slack/triage-report-message.js';
import { decodeTriageValue } from '../../../src/slack/triage-action-ids.js';
import { normalizeTriageReport } from '../../../src/triage/triage-report.js';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const view = (overrides: Partial<TriageReportView> = {}): TriageReportView => ({
  triageId: 'triage-Q1ABC',
  subject: 'incident #1234 on acme/checkout',
  baseBranch: 'main',
  links: { htmlBase: 'https://github.com/acme/checkout', sha: 'f'.repeat(40), incidentUrl: 'https://acme.pagerduty.com/incidents/Q1ABC' },
  report: normalizeTriageReport({
    whatIsGoingOn: 'POST /pay returns 500 since 14:05.',
    verdict: 'Null total from the cart refactor (a1b2c3d)',
    likelyCause: {
      summary: 'cartTotal() returns undefined for empty carts after a1b2c3d.',
      confidence: 'high',
      evidence: [
        { claim: 'the guard was removed', kind: 'file', ref: 'src/cart.ts:88' },
        { claim: 'the refactor', kind: 'commit', ref: SHA },
        { claim: 'merged as', kind: 'pull_request', ref: '#42' },
        { claim: 'TypeError in the alert', kind: 'alert', ref: 'cannot read total' },
      ],
    },
    suspectCommits: [{ sha: SHA, reason: 'removes the guard in src/cart.ts:88', confidence: 'high' }],
    ruledOut: [{ what: 'the database', why: 'no errors in its metrics' }],
    nextSteps: ['Revert a1b2c3d', 'Add a test for empty carts'],
  }),
  suspects: [{ sha: SHA, resolved: true, subject: 'Refactor cart totals', reason: 'removes the guard in src/cart.ts:88', confidence: 'high' }],
  ...overrides,
});

describe('triage report rendering', () => {
  it('links every piece of evidence to its source', () => {
    const text = triageReportMrkdwn(view());
    expect(text).toContain("*Likely cause* (the agent's reading, confidence: *high*)");
    expect(text).toContain(`<https://github.com/acme/checkout/blob/${'f'.repeat(40)}/src/cart.ts#L88|src/cart.ts:88>`);
    expect(text).toContain(`<https://github.com/acme/checkout/commit/${SHA}|${SHA}>`);
    expect(text).toContain('<https://github.com/acme/checkout/pull/42|#42>');
    expect(text).toContain('<https://acme.pagerduty.com/incidents/Q1ABC|cannot read total>');
    expect(text).toContain(`1. <https://github.com/acme/checkout/commit/${SHA}|a1b2c3d> Refactor cart totals`);
    expect(text).toContain('*Ruled out* (by the agent)');
    expect(text).toContain('2. Add a test for empty carts');
  });

  it('labels a cause without evidence a hypothesis of low confidence, and says when there is no lead', () => {
    const hypothesis = view({
      report: normalizeTriageReport({ ...view().report, likelyCause: { summary: 'Maybe the CDN', confidence: 'high', evidence: [] } }),
    });
    expect(hypothesis.report.likelyCause).toMatchObject({ hypothesis: true, confidence: 'low' });
    expect(triageReportMrkdwn(hypothesis)).toContain("*Hypothesis* (the agent's; no supporting evidence found, low confidence)");
    const none = view({ report: normalizeTriageReport({ ...view().report, likelyCause: null }), suspects: [] });
    expect(none.report.noGoodLead).toBe(true);
    expect(triageReportMrkdwn(none)).toContain('*No good lead.*');
  });

  it('puts approver buttons on the last message: fix, one revert per resolved suspect (confirmed), dismiss', () => {
    const other = { sha: 'b'.repeat(40), resolved: true, subject: 'Bump deps', reason: 'touches checkout', confidence: 'low' as const };
    const missing = { sha: 'deadbee', resolved: false, reason: 'not found', confidence: 'low' as const };
    const parts = renderTriageReport(view({ suspects: [...view().suspects, other, missing], usage: '12 steps' }));
    const blocks = parts[parts.length - 1]!.blocks;
    const actions = blocks.find((b) => b.type === 'actions') as {
      elements: Array<{ action_id: string; value: string; text: { text: string }; confirm?: unknown }>;
    };
    expect(actions.elements.map((e) => e.text.text)).toEqual(['Open fix PR', 'Revert a1b2c3d', 'Revert bbbbbbb', 'Dismiss']);
    expect(actions.elements.map((e) => e.action_id)).toEqual([
      'wrench_triage_fix',
      'wrench_triage_revert:0',
      'wrench_triage_revert:1',
      'wrench_triage_dismiss',
    ]);
    expect(decodeTriageValue(actions.elements[1]!.value)).toEqual({ triageId: 'triage-Q1ABC', sha: SHA, incidentId: undefined });
    expect(actions.elements[1]!.confirm).toBeDefined();
    expect(JSON.stringify(blocks)).toContain('Only approvers can use these buttons.');
    expect(parts[0]!.text).toContain('Null total from the cart refactor');
    expect(
      renderTriageReport(view({ withActions: false }))
        .flatMap((p) => p.blocks)
        .some((b) => b.type === 'actions'),
    ).toBe(false);
  });

  it('escapes text from the model and the incident, and splits long reports within Slack limits', () => {
    const long = normalizeTriageReport({
      ...view().report,
      whatIsGoingOn: `<!channel> ${'x '.repeat(15000)}`,
      nextSteps: Array.from({ length: 200 }, (_, i) => `step ${i} <@U0EVIL>`),
    });
    const parts = renderTriageReport(view({ report: long }));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.blocks.length).toBeLessThanOrEqual(50);
      for (const block of part.blocks) if (block.type === 'section' && block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    const all = JSON.stringify(parts);
    expect(all).not.toMatch(/<!channel>|<@U0EVIL>/);
    expect(all).toContain('step 199');
  });

  it("a person's triage asked in German or Japanese comes in their language: headings, confidence, buttons; the agent's words and the links as they are", () => {
    const manual = (language: string) =>
      view({ subject: 'acme/checkout', language, suspects: [...view().suspects, { sha: 'deadbee', resolved: false, reason: 'not found', confidence: 'low' }] });
    const german = triageReportMrkdwn(manual('de'));
    expect(german.split('\n').slice(0, 5)).toEqual([
      ':mag: *Triage von acme/checkout*',
      '*Urteil* (Lesart des Agenten): Null total from the cart refactor (a1b2c3d)',
      '',
      '*Was passiert* (Lesart des Agenten)',
      'POST /pay returns 500 since 14:05.',
    ]);
    expect(german).toContain('*Wahrscheinliche Ursache* (Lesart des Agenten, Sicherheit: *hoch*)');
    expect(german).toContain('*Verdächtige Commits* (wahrscheinlichster zuerst, auf `main`; die Gründe sind die des Agenten)');
    expect(german).toContain(`1. <https://github.com/acme/checkout/commit/${SHA}|a1b2c3d> Refactor cart totals — removes the guard in src/cart.ts:88 (hoch)`);
    expect(german).toContain('— not found (gering) _(nicht auf dem Basis-Branch gefunden)_');
    expect(german).toContain('*Ausgeschlossen* (vom Agenten)\n• the database: no errors in its metrics');
    expect(german).toContain('*Nächste Schritte* (Vorschläge des Agenten)\n1. Revert a1b2c3d');
    expect(german).not.toMatch(/Likely cause|Suspect commits|Ruled out|Next steps|the agent's/);
    const parts = renderTriageReport(manual('ja'));
    expect(parts[0]!.text).toBe('acme/checkout の調査: Null total from the cart refactor (a1b2c3d)');
    const blocks = JSON.stringify(parts.at(-1)!.blocks);
    for (const label of ['修正 PR を作成', 'a1b2c3d を revert', '却下', 'これらのボタンは承認者だけが使えます。', 'revert PR を作成', '"text":"キャンセル"'])
      expect(blocks).toContain(label);
    expect(triageReportMrkdwn(manual('ja'))).toContain('*考えられる原因*(エージェントの見解、確度: *高*)');
    // No language: English as before.
    expect(triageReportMrkdwn(view())).toContain("*Likely cause* (the agent's reading, confidence: *high*)");
  });
});
