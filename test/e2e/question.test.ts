import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appHomeOpenedEnvelope, appMentionEnvelope } from '../fakes/slack-fake.js';
import { freePort } from '../helpers/free-port.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { taskText } from './category-helpers.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0SHOP: { repo: acme/shop, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
# The card surface: the reply's text is the mrkdwn Slack shows.
slack: { streamRuns: false }
`;

const CHECKOUT = [
  "import { charge } from './gateway.js';",
  'const MAX_ATTEMPTS = 3;',
  'export async function pay(order) {',
  '  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {',
  '    try { return await charge(order); } catch (error) { if (attempt === MAX_ATTEMPTS) throw error; }',
  '  }',
  '}',
  '',
].join('\n'); // 7 lines

const answer = (input: Record<string, unknown>) => toolUseResponse([{ name: 'finish_task', input }]);

describe('a question about the code, end to end', () => {
  let world: E2eWorld;
  let publicUrl: string;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'shop', {
      'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'node --test' } }),
      'src/checkout.js': CHECKOUT,
      'src/gateway.js': 'export async function charge(order) {\n  return { id: order.id };\n}\n',
    });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    await world.start({ PORT: String(port), WRENCH_PUBLIC_URL: publicUrl, WRENCH_RUN_LINK_SECRET: 'run-link-secret-for-e2e-0123456789', WRENCH_METRICS: 'on' });
  }, 90_000);

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  it('answers read-only with links pinned to the commit, removes and names bad citations, pushes nothing; "ok, fix it" starts a change from the findings', async () => {
    const { anthropic, github, slack } = world;
    const sha = (await github.branchSha('acme', 'shop', 'main'))!;
    const refs = () =>
      execFileSync('git', ['--git-dir', github.gitDir('acme', 'shop'), 'for-each-ref', '--format=%(refname) %(objectname)'], { encoding: 'utf8' });
    const refsBefore = refs();
    const script = scriptByRun({
      'retry the payment three times': [
        toolUseResponse([{ name: 'search_files', input: { text: 'MAX_ATTEMPTS' } }]),
        // It tries what a question run has no tools for: a shell to push with, an edit.
        toolUseResponse([
          { name: 'bash', input: { command: 'git push origin HEAD:refs/heads/sneaky && echo pushed' } },
          { name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'probe.txt', file_text: 'x' } },
        ]),
        toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'src/checkout.js' } }]),
        answer({
          answer:
            'Checkout tries a payment up to `MAX_ATTEMPTS` times (src/checkout.js:2), in the loop at src/checkout.js:4-6; the count comes from src/config/payments.js:3.',
          claims: [
            { statement: 'A failed charge is retried until the last attempt, which throws.', citations: ['src/checkout.js:5', 'src/checkout.js:40-44'] },
            { statement: 'The charge itself is a single gateway call.', citations: ['src/gateway.js:1-3'] },
          ],
          notFound: ['Any delay between attempts: there is none in the code.'],
        }),
      ],
      'ok, fix it': [
        createFileStep('src/checkout.js', CHECKOUT.replace('const MAX_ATTEMPTS = 3;', 'const MAX_ATTEMPTS = 1;')),
        finishStep('Checkout now charges once.'),
      ],
    });
    anthropic.setScript(script.items);

    const question = appMentionEnvelope({ channel: 'C0SHOP', user: 'U0ALICE', text: '<@U0BOT> why does checkout retry the payment three times?' });
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, question)).status).toBe(200);
    const ts = (question.event as { ts: string }).ts;
    const reply = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Answer about/.test(String(c.args.text)), 120_000);
    await slack.waitFor((c) => c.method === 'chat.update' && /Done/.test(String(c.args.text)) && c.at >= reply.at, 30_000).catch(() => undefined);
    const text = slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === ts && c.at >= reply.at)
      .map((c) => String(c.args.text))
      .join('\n');

    // The card read it as a question; the reply names the commit it read.
    expect(JSON.stringify(slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts)[0]?.args)).toContain('Question');
    expect(text).toContain(`Answer about \`acme/shop\` on \`main\` at \`${sha.slice(0, 7)}\``);
    // Every citation that holds is a link to its lines on GitHub at that exact commit; the agent's words are marked as its own.
    const blob = `${github.gitBaseUrl}/acme/shop/blob/${sha}`;
    expect(text).toContain(`<${blob}/src/checkout.js#L2|src/checkout.js:2>`);
    expect(text).toContain(`<${blob}/src/checkout.js#L4-L6|src/checkout.js:4-6>`);
    expect(text).toContain(`<${blob}/src/checkout.js#L5|src/checkout.js:5>`);
    expect(text).toContain(`<${blob}/src/gateway.js#L1-L3|src/gateway.js:1-3>`);
    expect(text).toContain("Answer (the agent's account)");
    expect(text).toContain('Any delay between attempts: there is none in the code.');
    // The citations that do not hold are removed, said, and never linked.
    expect(text).toContain('Citations removed');
    expect(text).toContain('`src/config/payments.js:3`: no such file at this commit');
    expect(text).toContain('`src/checkout.js:40-44`: the file has 7 lines');
    expect(text).toContain('(citation removed)');
    expect(text).not.toMatch(/blob\/[0-9a-f]+\/src\/config\/payments\.js/);
    expect(text).not.toContain('#L40');

    // Read-only: only the view-only editor, the search and the report; the push and the edit were refused.
    const requests = anthropic.requests.map((r) => r.body as { tools?: Array<{ name: string }>; messages: unknown[] });
    const questionRequests = requests.filter((body) => taskText(body).includes('retry the payment three times'));
    expect(questionRequests[0]!.tools!.map((tool) => tool.name).sort()).toEqual(['finish_task', 'search_files', 'str_replace_based_edit_tool']);
    const afterSearch = JSON.stringify(questionRequests[1]!.messages);
    expect(afterSearch).toContain('src/checkout.js:2: const MAX_ATTEMPTS = 3;');
    const afterAttempts = JSON.stringify(questionRequests[2]!.messages);
    expect(afterAttempts).toContain('no tool named bash');
    expect(afterAttempts).toContain('read-only');
    expect(refs()).toBe(refsBefore);
    expect(github.pulls('acme', 'shop')).toHaveLength(0);
    expect(github.requests.some((r) => r.method === 'POST' && /\/pulls$/.test(r.path))).toBe(false);

    // Counted in /metrics by its category and outcome; shown on its run page and in App Home.
    const metrics = await (await fetch(`${publicUrl}/metrics`)).text();
    expect(metrics).toMatch(/^wrench_runs_total\{category="question",outcome="answered"\} 1$/m);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/runs\/[A-Za-z0-9_.-]+\?expires=\d+&(?:amp;)?sig=[A-Za-z0-9_-]+)/.exec(JSON.stringify(reply.args))?.[1];
    expect(link).toBeDefined();
    const page = await (await fetch(link!.replace('&amp;', '&'))).text();
    expect(page).toContain('question');
    expect(page).toContain('src/checkout.js:4-6');
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, appHomeOpenedEnvelope({ user: 'U0ALICE' }));
    const home = await slack.waitFor((c) => c.method === 'views.publish' && c.args.user_id === 'U0ALICE', 20_000);
    expect(JSON.stringify(home.args.view)).toContain('retry the payment three times');

    // The follow-up is a change that starts from the answer: its task carries the findings with their checked citations.
    const followUp = appMentionEnvelope({ channel: 'C0SHOP', user: 'U0ALICE', text: '<@U0BOT> ok, fix it', thread_ts: ts });
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, followUp);
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text)), 150_000);
    const changeTask = taskText(anthropic.requests.map((r) => r.body).find((body) => taskText(body).includes('ok, fix it')));
    expect(changeTask).toContain('Findings (its answer; every citation checked against the commit it read)');
    expect(changeTask).toContain(`Answer read at ${sha} of main`);
    expect(changeTask).toContain('src/checkout.js:4-6');
    expect(changeTask).toContain('- A failed charge is retried until the last attempt, which throws. (src/checkout.js:5)');
    expect(changeTask).not.toContain('src/config/payments.js');
    const pulls = github.pulls('acme', 'shop');
    expect(pulls).toHaveLength(1);
    const diff = execFileSync('git', ['--git-dir', github.gitDir('acme', 'shop'), 'diff', `${sha}..${pulls[0]!.headRef}`], { encoding: 'utf8' });
    expect(diff).toContain('+const MAX_ATTEMPTS = 1;');
  });

  it("answers a question asked in German in German: Wrench's words, the removed citations and why", async () => {
    const { anthropic, slack, github } = world;
    const sha = (await github.branchSha('acme', 'shop', 'main'))!;
    anthropic.setScript(
      scriptByRun({
        'Warum wiederholt der Checkout': [
          answer({
            answer: 'In src/checkout.js:2 steht `MAX_ATTEMPTS = 3`; gelesen wird es in src/checkout.js:9.',
            claims: [],
            notFound: ['Eine Konfigurationsdatei dafür gibt es nicht.'],
          }),
        ],
      }).items,
    );
    const question = appMentionEnvelope({ channel: 'C0SHOP', user: 'U0ALICE', text: '<@U0BOT> Warum wiederholt der Checkout die Zahlung dreimal?' });
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, question);
    const ts = (question.event as { ts: string }).ts;
    const reply = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Antwort zu/.test(String(c.args.text)), 120_000);
    const text = String(reply.args.text);
    expect(text).toContain(`Antwort zu \`acme/shop\` auf \`main\` bei \`${sha.slice(0, 7)}\``);
    expect(text).toContain(`<${github.gitBaseUrl}/acme/shop/blob/${sha}/src/checkout.js#L2|src/checkout.js:2>`);
    expect(text).toContain('(Belegstelle entfernt)');
    expect(text).toContain('Entfernte Belegstellen');
    expect(text).toContain('`src/checkout.js:9`: die Datei hat 7 Zeilen');
    expect(text).toContain('Eine Konfigurationsdatei dafür gibt es nicht.');
    expect(text).not.toContain('#L9');
  });
});
