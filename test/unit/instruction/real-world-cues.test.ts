import { describe, expect, it } from 'vitest';
import { unreadableLanguage } from '../../../src/instruction/language-cues.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { threadLanguage } from '../../../src/slack/strings/index.js';

/** How people write outside our own phrasing: the rules hold back only what they are sure of. */
describe("reading real people's wording", () => {
  it('a named component is a place: a typo fix in "the header component" is clear', () => {
    const reading = readInstruction('Fix the typo in the header component. It reads "Welcom" instead of "Welcome".');
    expect(reading).toMatchObject({ category: 'bug-fixing', verdict: 'well-formed' });
  });

  it('a backticked symbol points at the code, and a concurrency fault is a symptom', () => {
    const reading = readInstruction('fix(cache): data race caused by concurrent access to `entry_table` when two readers refresh at once');
    expect(reading).toMatchObject({ category: 'bug-fixing', verdict: 'well-formed' });
  });

  it('"do not touch X" is a constraint, not a symptom: a fix with no problem described is asked about', () => {
    const reading = readInstruction('Fix the signup flow in src/signup.\nDo not touch billing.\nKeep the change small.');
    expect(reading.verdict).toBe('ill-formed');
    expect(reading.missing).toContain('observed-problem');
  });

  it('an issue template left unfilled is not guessed at', () => {
    const bug = readInstruction('[Widget] - Your Bug Name\n**Steps to Reproduce**\n1. Do something\n2. Do something else.\n\n**Expected**\nIt should work');
    expect(bug).toMatchObject({ category: 'bug-fixing', verdict: 'ill-formed' });
    const analysis = readInstruction('### Description\n\nDescribe the dataset and analysis requirements here\n\n### Dataset\n\nDataset details here');
    expect(analysis.verdict).toBe('ill-formed');
  });

  it('details left to someone else are asked for', () => {
    const reading = readInstruction('CSV export for the invoices page\nMaria can probably give more detail?');
    expect(reading.verdict).toBe('ill-formed');
    expect(reading.missing).toContain('requirements');
  });

  it('a review needs something to read: "please review" alone is asked about, the diff or a PR is enough', () => {
    expect(readInstruction("Please review. I'd like to merge this before the release.")).toMatchObject({
      category: 'code-review',
      verdict: 'ill-formed',
      missing: ['target'],
    });
    expect(readInstruction('For every line the diff removes, say which check it enforced and where the new code enforces it again.')).toMatchObject({
      category: 'code-review',
      verdict: 'well-formed',
    });
    expect(readInstruction('add a security checklist section to the PR review prompt in prompts/review.md').category).toBe('feature');
  });

  it('scrapers name their sources by domain, any country\'s; "product pages" alone names none', () => {
    expect(readInstruction('Add a script that scrapes prices from shop.example.dk')).toMatchObject({ category: 'web-scraping', verdict: 'well-formed' });
    expect(readInstruction('Product pages scrapped and saved to local disk and S3')).toMatchObject({ category: 'web-scraping', verdict: 'ill-formed' });
  });

  it('"I need to add …" asks for a feature', () => {
    expect(readInstruction('I need to add CSV export to the reports page using the existing papaparse dependency.').category).toBe('feature');
  });

  it('text in a language the rules cannot read is let through, said so, and given the category its own words name', () => {
    const spanish = readInstruction('Corregir el error en el formulario de pago: el total se muestra en cero para los usuarios nuevos.');
    expect(spanish).toMatchObject({ language: 'unreadable', verdict: 'well-formed', category: 'bug-fixing' });
    const german = readInstruction('Bitte Tests für das Modul der Rechnungen schreiben, die Abdeckung ist zu niedrig.');
    expect(german).toMatchObject({ language: 'unreadable', category: 'testing' });
    const chinese = readInstruction('点击保存按钮时应用程序崩溃，请修复');
    expect(chinese).toMatchObject({ language: 'unreadable', category: 'bug-fixing' });
    // French as people write it to a bot: the imperative, with or without "vous".
    const french = readInstruction('Corrige le bug de décalage d’un jour dans formatDate (src/date.js) ; `npm test` doit passer.');
    expect(french).toMatchObject({ language: 'unreadable', verdict: 'well-formed', category: 'bug-fixing' });
    expect(readInstruction('Ajoutez un bouton d’export CSV sur la page des factures, à côté du bouton Imprimer.').category).toBe('feature');
    expect(readInstruction('Refactorisez le module de paiement pour séparer la validation du calcul des taxes.').category).toBe('refactoring');
    // Brazilian Portuguese, in the imperative people write to a bot ("você" form).
    const portuguese = readInstruction('Corrija o cálculo do frete em src/shipping.ts: clientes do Nordeste pagam o dobro; `npm test` deve passar.');
    expect(portuguese).toMatchObject({ language: 'unreadable', category: 'bug-fixing', writtenIn: 'pt' });
    expect(readInstruction('Conserte o botão de salvar da página de perfil, ele não faz nada.').category).toBe('bug-fixing');
    expect(readInstruction('Adicione um botão de exportar CSV na página de faturas, ao lado do botão Imprimir.').category).toBe('feature');
    expect(readInstruction('Crie um endpoint /health que retorne o status do banco de dados.').category).toBe('feature');
    expect(readInstruction('Implemente a paginação na listagem de pedidos.').category).toBe('feature');
    expect(readInstruction('Refatore o módulo de pagamento para separar a validação do cálculo de impostos.').category).toBe('refactoring');
    expect(readInstruction('Revise as mudanças no módulo de autenticação e aponte os riscos de segurança.').category).toBe('code-review');
    expect(readInstruction('Analise as vendas por região do arquivo data/vendas.csv e gere um gráfico.').category).toBe('data-analysis');
    expect(readInstruction('Fix the crash when saving the settings form: TypeError in src/settings.ts').language).toBeUndefined();
  });

  it('text the rules cannot read still says which language to answer in, when its words say so clearly', () => {
    const writtenIn = (text: string) => readInstruction(text).writtenIn;
    expect(writtenIn('Corrige le bug de décalage d’un jour dans formatDate (src/date.js) ; `npm test` doit passer et les tests aussi.')).toBe('fr');
    expect(writtenIn('Corregir el error en el formulario de pago: el total se muestra en cero para los usuarios nuevos.')).toBe('es');
    expect(writtenIn('Bitte Tests für das Modul der Rechnungen schreiben, die Abdeckung ist zu niedrig.')).toBe('de');
    expect(writtenIn('src/auth/login.ts のバグを直してください。再読み込みするとログアウトされます')).toBe('ja');
    expect(writtenIn('点击保存按钮时应用程序崩溃，请修复')).toBe('zh');
    // Traditional characters say Traditional Chinese, which has no catalogue: the thread is then English.
    expect(writtenIn('點擊保存按鈕時應用程序崩潰，請修復這個錯誤')).toBe('zh-Hant');
    expect(threadLanguage(writtenIn('點擊保存按鈕時應用程序崩潰，請修復這個錯誤'), 'en-US')).toBe('en');
    expect(threadLanguage(writtenIn('点击保存按钮时应用程序崩溃，请修复这个错误'), 'en-US')).toBe('zh');
    // A whole rewrite is declined in the language it was asked in.
    expect(readInstruction('Réécrivez tout le backend en Rust, avec les tests et la documentation pour le déploiement.')).toMatchObject({
      hold: 'whole-rewrite',
      writtenIn: 'fr',
    });
    // English, and words two languages share ("de", "que", "para", "con"), say nothing.
    expect(writtenIn('Fix the crash when saving the settings form: TypeError in src/settings.ts')).toBeUndefined();
    expect(writtenIn('que de para con una quando per de que para')).toBeUndefined();
  });

  it('English with a few foreign names or code is still English', () => {
    expect(unreadableLanguage('Rename `der_wert` to `value` in src/la/calc.py and update the callers')).toBe(false);
    expect(unreadableLanguage('Add a Spanish greeting "hola, que tal" to the welcome banner')).toBe(false);
  });
});
