import type { ModalView } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { clarificationCard } from '../../../src/slack/clarification-card.js';
import { clarificationModal as anyView } from '../../../src/slack/clarification-modal.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

const thread = { channel: 'C0DEV', threadTs: '1700000000.000100' };
const text = 'we need more test coverage';

type Field = { block_id: string; label: { text: string }; element: { placeholder?: { text: string } } };
const clarificationModal = (...args: Parameters<typeof anyView>) => anyView(...args) as ModalView;
const fields = (view: ModalView) => view.blocks as unknown as Field[];

describe('the "Add details" modal in the thread language', () => {
  it("says its title, buttons and the instruction's label in German and Japanese, and asks the card's own questions", () => {
    const asked = [
      { element: 'target', question: 'Was sollen die Tests abdecken?' },
      { element: 'location', question: 'Wo liegt der Code, der getestet werden soll?' },
    ];
    const de = clarificationModal(readInstruction(text), text, thread, stringsFor('de'), asked);
    expect([de.title?.text, de.submit?.text, de.close?.text]).toEqual(['Details ergänzen', 'Starten', 'Abbrechen']);
    expect(fields(de).map((b) => [b.block_id, b.label.text])).toEqual([
      ['instruction', 'Deine Anweisung'],
      ['missing:target', 'Was sollen die Tests abdecken?'],
      ['missing:location', 'Wo liegt der Code, der getestet werden soll?'],
    ]);
    // The rules' English examples do not sit under a German question.
    expect(fields(de).some((b) => b.element.placeholder)).toBe(false);
    const ja = clarificationModal(readInstruction(text), text, thread, stringsFor('ja'));
    expect([ja.title?.text, ja.submit?.text, ja.close?.text, fields(ja)[0]?.label.text]).toEqual(['詳細を追加', '開始', 'キャンセル', 'あなたの指示']);
    expect(stringsFor('es').modal.title).toBe('Añadir detalles');
    for (const language of ['en', 'de', 'ja', 'es', 'fr', 'pt', 'zh']) expect(stringsFor(language).modal.title.length).toBeLessThanOrEqual(24);
  });

  it('is as before in English: the rules ask, with their examples', () => {
    const view = clarificationModal(readInstruction(text), text, thread);
    expect([view.title?.text, view.submit?.text, view.close?.text]).toEqual(['Add details', 'Start', 'Cancel']);
    expect(fields(view).map((b) => b.block_id)).toEqual(['instruction', 'missing:target', 'missing:location']);
    expect(fields(view)[0]?.label.text).toBe('Your instruction');
    expect(fields(view)[1]?.label.text).toBe('What should the tests cover? Name the module, function or behaviour to test.');
    expect(fields(view)[1]?.element.placeholder?.text).toBe('`formatBytes` in src/lib/format.ts: 0, 1023, 1024, negative input');
  });

  it("asks the rules' questions in German and Japanese when the model did not ask, on the card and in the modal", () => {
    const reading = readInstruction(text);
    expect(reading.questions).toBeUndefined();
    const de = clarificationModal(reading, text, thread, stringsFor('de'));
    expect(fields(de).map((b) => b.label.text)).toEqual([
      'Deine Anweisung',
      'Was sollen die Tests abdecken? Nenne das Modul, die Funktion oder das Verhalten, das getestet werden soll.',
      'Wo liegt der Code, der getestet werden soll? Nenne die Datei oder das Verzeichnis.',
    ]);
    expect(fields(de)[1]?.element.placeholder?.text).toBe('`formatBytes` in src/lib/format.ts: 0, 1023, 1024, negative Eingabe');
    const card = clarificationCard(reading, text, thread, stringsFor('ja'));
    expect(card.text).toContain('1. テストで何をカバーしますか？テスト対象のモジュール、関数、または動作を挙げてください。');
    expect(card.text).toContain('2. テスト対象のコードはどこにありますか？ファイルまたはディレクトリを教えてください。');
    // Every question the rules have, in both languages: none left in English.
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const t = stringsFor(language).clarifying;
      const en = stringsFor('en').clarifying;
      expect(Object.keys(t).sort()).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(t)) {
        if (key === 'target')
          for (const [category, ask] of Object.entries(t.target)) expect(ask.question, category).not.toBe(en.target[category as 'testing'].question);
        else if (typeof value === 'function') {
          const said = (ask: unknown) => JSON.stringify((ask as (subject: string) => unknown)('x'));
          expect(said(value), key).not.toBe(said(en[key as 'more']));
        } else expect((value as { question: string }).question, key).not.toBe((en[key as 'logging'] as { question: string }).question);
      }
      expect(Object.keys(t.target).sort()).toEqual(Object.keys(en.target).sort());
    }
    expect(stringsFor('de').clarifying.scope('Zahlungen').question).toMatch(/^„Zahlungen“ ist ein großes Gebiet\./);
    expect(stringsFor('es').clarifying.scope('pagos').question).toMatch(/^«pagos» es un área amplia\./);
    expect(stringsFor('fr').clarifying.scope('paiements').question).toMatch(/^« paiements » est un vaste domaine\./);
    expect(stringsFor('pt').clarifying.scope('pagamentos').question).toMatch(/^“pagamentos” é uma área ampla\./);
    expect(stringsFor('zh').clarifying.scope('支付').question).toMatch(/^“支付”涉及的范围太大。/);
    expect(stringsFor('zh').modal.title).toBe('补充详情');
  });
});
