import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse, type RecordedRequest } from '../fakes/anthropic-fake.js';
import { incidentAnnotatedWebhook, incidentWebhook, pageyPing } from '../fakes/pagerduty-webhook-sender.js';
import { appMentionEnvelope, blockActionsPayload, type SlackCall, type SlackMessage } from '../fakes/slack-fake.js';
import { jobIdFor } from '../../src/queue/task-job.js';
import { SIGNING_SECRET } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createTriageWorld, PD_FROM, PD_SECRETS, PD_TOKEN, type TriageWorld } from './triage-world.js';

const CONFIG = `
channels:
  C0INC: { repo: acme/checkout, baseBranch: main }
repos: [acme/*]
access:
  users: []
  approvers: [U0LEAD]
pagerduty:
  services:
    PABC123: { repo: acme/checkout, channel: C0INC }
limits: { concurrency: 1 }
sandbox: { mode: bwrap }
`;

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
const GOOD_CART = 'export function cartTotal(items) {\n  if (items.length === 0) return 0;\n  return items.reduce((sum, item) => sum + item.price, 0);\n}\n';
const BAD_CART =
  'export function cartTotal(items) {\n  if (items.length === 0) return undefined;\n  return items.reduce((sum, item) => sum + item.price, 0);\n}\n';

/** The scripted triage: look at the history, then report the suspect with evidence. */
function triageScript(suspects: string[], verdict: string) {
  const suspect = suspects[0];
  return [
    toolUseResponse([{ name: 'bash', input: { command: 'git log --oneline -5 && grep -n "return" src/cart.js' } }], 'Looking at the recent history.'),
    toolUseResponse([
      {
        name: 'finish_task',
        input: {
          whatIsGoingOn: 'POST /pay has returned HTTP 500 since the incident started: the alert shows a TypeError reading toFixed of undefined.',
          verdict,
          likelyCause: {
            summary: `cartTotal() returns undefined for empty carts since ${suspect!.slice(0, 7)}, and the payment code calls toFixed on it.`,
            confidence: 'high',
            evidence: [
              { claim: 'empty carts return undefined', kind: 'file', ref: 'src/cart.js:2' },
              { claim: 'the change that removed the zero', kind: 'commit', ref: suspect },
              { claim: 'the TypeError in the alert', kind: 'alert', ref: 'TypeError: toFixed of undefined' },
            ],
          },
          suspectCommits: suspects.map((sha) => ({ sha: sha.slice(0, 7), reason: 'changes code on the payment path', confidence: 'high' })),
          ruledOut: [{ what: 'the docs change', why: 'it only touches README.md' }],
          nextSteps: ['Revert the suspect commit', 'Add a test for empty carts'],
        },
      },
    ]),
  ];
}

const isCard = (c: SlackCall) => c.method === 'chat.postMessage' && c.args.channel === 'C0INC' && !c.args.thread_ts;
const blocksOf = (c: SlackCall | SlackMessage) => JSON.stringify((c as { args?: { blocks?: unknown } }).args?.blocks ?? (c as SlackMessage).blocks ?? []);

describe('PagerDuty incident triage, end to end', () => {
  let world: TriageWorld;
  let suspectSha: string;
  let docsSha: string;
  let incidentId: string;
  let triggered: Record<string, unknown>;
  let cardTs: string;

  beforeAll(async () => {
    world = await createTriageWorld(CONFIG);
    await world.github.createRepo(
      'acme',
      'checkout',
      {
        'package.json': JSON.stringify({ name: 'checkout', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2),
        'src/cart.js': GOOD_CART,
        'src/cart.test.js':
          "import test from 'node:test';\nimport assert from 'node:assert';\nimport { cartTotal } from './cart.js';\n\ntest('empty cart totals 0', () => assert.equal(cartTotal([]), 0));\n",
        'README.md': '# checkout\n',
      },
      { initial: { message: 'Initial commit', date: hoursAgo(72) } },
    );
    suspectSha = await world.github.commit('acme', 'checkout', 'main', {
      message: 'Refactor cart totals',
      files: { 'src/cart.js': BAD_CART },
      date: hoursAgo(3),
      author: { name: 'Dev', email: 'dev@acme.test' },
    });
    docsSha = await world.github.commit('acme', 'checkout', 'main', {
      message: 'Docs: describe the checkout',
      files: { 'README.md': '# checkout\n\nPays for carts.\n' },
      date: hoursAgo(1),
      author: { name: 'Dev', email: 'dev@acme.test' },
    });
    world.pagerduty.addService({ id: 'PABC123', name: 'Checkout' });
    incidentId = world.pagerduty.addIncident({
      title: 'Checkout error rate above 5% <!channel>',
      service: 'PABC123',
      urgency: 'high',
      priority: { id: 'PP1', summary: 'P1' },
      alerts: [{ summary: 'HTTP 500 on POST /pay', details: { error: "TypeError: Cannot read properties of undefined (reading 'toFixed')", route: '/pay' } }],
    }).id;
    triggered = incidentWebhook('incident.triggered', world.pagerduty.incidentJson(incidentId), { id: 'EVT-TRIGGERED-1' });
    await world.start();
  });

  afterAll(async () => {
    if (process.env.TRIAGE_E2E_LOG) (await import('node:fs')).writeFileSync(process.env.TRIAGE_E2E_LOG, world?.wrench?.output() ?? '');
    await world?.stop();
  });

  it('answers pings, refuses bad signatures (401), malformed (400) and oversized (413) bodies, and queues nothing for them', async () => {
    // The webhook queues its job before it answers: once every answer is in, the queue holds all there will be.
    const before = await world.triageJobIds();
    expect((await world.sendWebhook(pageyPing())).status).toBe(200);
    expect((await world.sendWebhook(triggered, { badSignature: true })).status).toBe(401);
    expect((await world.sendWebhook(triggered, { unsigned: true })).status).toBe(401);
    expect((await world.sendWebhook('{"event": ', {})).status).toBe(400);
    expect((await world.sendWebhook({ event: { id: 'x' } })).status).toBe(400);
    const huge = JSON.stringify({ event: { padding: 'x'.repeat(1_100_000) } });
    expect((await world.sendWebhook(huge).catch(() => ({ status: 413 }))).status).toBe(413);
    const unmapped = incidentWebhook('incident.triggered', { id: 'QOTHER', title: 'Elsewhere', service: { id: 'POTHER', summary: 'Other' } });
    const ignored = await world.sendWebhook(unmapped);
    expect(ignored.status).toBe(200);
    expect(ignored.json).toMatchObject({ status: 'ignored' });
    expect(await world.triageJobIds()).toEqual(before);
    expect(before).toEqual([]);
  });

  it('turns incident.triggered into a card, a triage report in its thread, a note on the incident and a verdict on the card', async () => {
    const { slack, anthropic, pagerduty } = world;
    anthropic.setScript(triageScript([suspectSha], `Empty carts return undefined since ${suspectSha.slice(0, 7)} (high confidence)`));
    const delivered = await world.sendWebhook(triggered, { secrets: PD_SECRETS, webhookId: 'delivery-1' });
    expect(delivered.status).toBe(202);

    const card = await slack.waitFor(isCard, 10_000);
    // A parent's thread_ts is its own ts once the triage has replied in its thread.
    cardTs = slack.messages('C0INC').find((m) => (!m.thread_ts || m.thread_ts === m.ts) && m.bot_id)!.ts;
    const cardBlocks = blocksOf(card);
    expect(cardBlocks).toContain('[#');
    expect(cardBlocks).toContain('Checkout error rate above 5%');
    expect(cardBlocks).toContain('*Urgency*\\nHigh');
    expect(cardBlocks).toContain('*Priority*\\nP1');
    expect(cardBlocks).toContain('*Service*\\nCheckout');
    expect(cardBlocks).toContain(':red_circle: Triggered');
    expect(cardBlocks).toContain('On-call Engineer');
    expect(cardBlocks).toContain(`/incidents/${incidentId}|`);
    expect(String(card.args.text)).not.toContain('<!channel>');

    const report = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === cardTs && String(c.args.text).startsWith('Triage of'),
      90_000,
    );
    const reportBlocks = blocksOf(report);
    expect(reportBlocks).toContain("*Likely cause* (the agent's reading, confidence: *high*)");
    expect(reportBlocks).toContain(`/acme/checkout/commit/${suspectSha}|${suspectSha.slice(0, 7)}>`);
    expect(reportBlocks).toMatch(/\/acme\/checkout\/blob\/[0-9a-f]{40}\/src\/cart\.js#L2\|src\/cart\.js:2>/);
    expect(reportBlocks).toContain(`wrench_triage_revert:0`);
    expect(reportBlocks).toContain('Open fix PR');
    expect(reportBlocks).toContain('Dismiss');

    const note = await pagerduty.waitForNote(incidentId, 20_000);
    expect(note.content.startsWith('[Wrench]')).toBe(true);
    expect(note.content).toContain("Likely cause (the agent's reading, high confidence)");
    expect(note.content).toContain(`/archives/C0INC/p${cardTs.replace('.', '')}`);
    expect(note.user.email).toBe(PD_FROM);
    const notePost = pagerduty.requests.find((r) => r.method === 'POST' && r.path === `/incidents/${incidentId}/notes`);
    expect(notePost?.from).toBe(PD_FROM);
    expect(pagerduty.requests.some((r) => r.path === `/incidents/${incidentId}/alerts`)).toBe(true);
    expect(pagerduty.requests.some((r) => r.path === `/incidents/${incidentId}/log_entries`)).toBe(true);

    const verdict = await slack.waitFor((c) => c.method === 'chat.update' && c.args.ts === cardTs && blocksOf(c).includes('*Triage:*'), 10_000);
    expect(blocksOf(verdict)).toContain('Empty carts return undefined');

    // The agent ran read-only: only bash, the editor (view only) and the finish tool; the incident was quoted as untrusted data.
    const first = anthropic.requests[0] as RecordedRequest;
    expect(first.body.tools.map((t: { name: string }) => t.name).sort()).toEqual(['bash', 'finish_task', 'str_replace_based_edit_tool']);
    const task = JSON.stringify(first.body.messages[0]);
    const untrusted = task.slice(task.indexOf('<untrusted>'), task.lastIndexOf('</untrusted>'));
    expect(untrusted).toContain('Checkout error rate above 5%');
    expect(untrusted).toContain("reading 'toFixed'");
    expect(untrusted).toContain(`commit ${suspectSha} — Refactor cart totals`);
    expect(untrusted).not.toContain('Initial commit');
    expect(JSON.stringify(first.body.system)).toContain('This run is read-only');
  });

  it('does nothing new for a redelivery, the same event under another delivery id, or a second trigger of the incident', async () => {
    const { pagerduty } = world;
    // The webhook queues before it answers, so the answers and the queue's job ids are the whole story.
    const jobs = await world.triageJobIds();
    expect(jobs).toEqual([jobIdFor('pd', 'EVT-TRIGGERED-1'), jobIdFor('triage', incidentId)].sort());
    const again = await world.sendWebhook(triggered, { webhookId: 'delivery-1' });
    expect(again).toMatchObject({ status: 200, json: { status: 'duplicate' } });
    expect((await world.sendWebhook(triggered, { webhookId: 'delivery-2' })).json).toMatchObject({ status: 'duplicate' });
    const retrigger = incidentWebhook('incident.triggered', world.pagerduty.incidentJson(incidentId), { id: 'EVT-TRIGGERED-2' });
    expect((await world.sendWebhook(retrigger)).json).toMatchObject({ status: 'ignored' });
    expect(await world.triageJobIds()).toEqual(jobs);
    expect(await world.jobResult(jobIdFor('triage', incidentId))).toMatchObject({ status: 'reported' });
    expect(pagerduty.notes(incidentId)).toHaveLength(1);
    expect(world.slack.callsTo('chat.postMessage').filter(isCard)).toHaveLength(1);
  });

  it('updates the card in place when the incident is acknowledged and resolved', async () => {
    const { slack } = world;
    const alice = { id: 'PALICE', type: 'user_reference', summary: 'Alice Responder' };
    const acked = incidentWebhook('incident.acknowledged', { ...world.pagerduty.incidentJson(incidentId), status: 'acknowledged' }, { agent: alice });
    expect((await world.sendWebhook(acked)).status).toBe(202);
    const ackUpdate = await slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === cardTs && blocksOf(c).includes('Acknowledged by Alice Responder'),
      10_000,
    );
    expect(blocksOf(ackUpdate)).toContain(':large_yellow_circle: Acknowledged');
    expect(blocksOf(ackUpdate)).toContain('*Triage:*');

    const resolved = incidentWebhook(
      'incident.resolved',
      { ...world.pagerduty.incidentJson(incidentId), status: 'resolved', assignments: [] },
      { agent: alice },
    );
    expect((await world.sendWebhook(resolved)).status).toBe(202);
    const resolveUpdate = await slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === cardTs && blocksOf(c).includes(':large_green_circle: Resolved'),
      10_000,
    );
    expect(blocksOf(resolveUpdate)).toContain('Resolved by Alice Responder');
    expect(slack.callsTo('chat.postMessage').filter(isCard)).toHaveLength(1);
  });

  it("posts a responder's note in the thread with a re-triage button, and never Wrench's own note", async () => {
    const { slack, pagerduty } = world;
    const incident = pagerduty.incidentJson(incidentId);
    const own = pagerduty.notes(incidentId)[0];
    const ownWebhook = incidentAnnotatedWebhook(
      incident,
      { id: own!.id, content: own!.content },
      { agent: { id: own!.user.id, type: 'user_reference', summary: own!.user.name } },
    );
    expect((await world.sendWebhook(ownWebhook)).status).toBe(202);
    // The handler's outcome: Wrench recognised its own note and posted nothing.
    expect(await world.jobResult(jobIdFor('pd', (ownWebhook.event as { id: string }).id))).toEqual({ status: 'own_note' });
    // Alice writes a note in PagerDuty, which then sends incident.annotated (the event's agent is the author).
    const content = 'Rolled back the CDN config at 14:20, errors continue';
    const written = await fetch(`${pagerduty.url}/incidents/${incidentId}/notes`, {
      method: 'POST',
      headers: { authorization: `Token token=${PD_TOKEN}`, from: 'alice@acme.test', 'content-type': 'application/json' },
      body: JSON.stringify({ note: { content } }),
    }).then((r) => r.json() as Promise<{ note: { id: string; user: { id: string } } }>);
    const human = incidentAnnotatedWebhook(
      incident,
      { id: written.note.id, content },
      { agent: { id: written.note.user.id, type: 'user_reference', summary: 'Alice Responder' } },
    );
    expect((await world.sendWebhook(human)).status).toBe(202);
    const posted = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === cardTs && String(c.args.text).includes('Rolled back the CDN config'),
      10_000,
    );
    expect(blocksOf(posted)).toContain('wrench_triage_retriage');
    expect(String(posted.args.text)).toContain('Alice Responder');
    expect(await world.jobResult(jobIdFor('pd', (human.event as { id: string }).id))).toEqual({ status: 'posted' });
    const echoes = slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === cardTs && String(c.args.text).includes('[Wrench]'));
    expect(echoes).toHaveLength(0);
  });

  it('refuses the revert button to a non-approver, and opens a draft PR reverting the suspect for an approver', async () => {
    const { slack, github } = world;
    const reportMessage = slack.messages('C0INC', cardTs).find((m) => blocksOf(m).includes('wrench_triage_revert:0'))!;
    const button = (JSON.parse(blocksOf(reportMessage)) as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>)
      .find((b) => b.type === 'actions')!
      .elements!.find((e) => e.action_id === 'wrench_triage_revert:0')!;
    const press = (user: string) =>
      slack.deliverInteraction(
        `${world.wrench!.url}/slack/events`,
        SIGNING_SECRET,
        blockActionsPayload({ user, channel: 'C0INC', message_ts: reportMessage.ts, thread_ts: cardTs, action_id: button.action_id, value: button.value }),
      );

    expect((await press('U0RANDOM')).status).toBe(200);
    await expect.poll(() => slack.ephemerals.find((e) => e.user === 'U0RANDOM')?.text, { timeout: 10_000 }).toContain('Only approvers');
    // The refusal is told after the decision: by then a revert would already be queued.
    expect((await world.triageJobIds()).filter((id) => id.startsWith('revert-'))).toEqual([]);
    expect(github.pulls('acme', 'checkout')).toHaveLength(0);

    expect((await press('U0LEAD')).status).toBe(200);
    await expect.poll(() => github.pulls('acme', 'checkout').length, { timeout: 120_000, interval: 500 }).toBe(1);
    const pull = github.pulls('acme', 'checkout')[0];
    expect(pull!.draft).toBe(true);
    expect(pull!.headRef).toBe(`wrench/revert-${suspectSha.slice(0, 7)}`);
    expect(pull!.baseRef).toBe('main');
    const head = `refs/heads/${pull!.headRef}`;
    expect(pull!.body).toContain(incidentId);
    expect(pull!.body).toContain(`/archives/C0INC/p${cardTs.replace('.', '')}`);
    expect(pull!.body).toContain('## Verification');
    expect(pull!.body).toContain('**improved**');

    const gitDir = github.gitDir('acme', 'checkout');
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' });
    expect(git('log', '-1', '--format=%B', head)).toContain(`This reverts commit ${suspectSha}`);
    // The revert commit's diff is exactly the inverse of the suspect's, and later work stays.
    expect(git('diff', `${head}~1`, head)).toBe(git('diff', suspectSha, `${suspectSha}~1`));
    expect(git('show', `${head}:src/cart.js`)).toBe(GOOD_CART);
    expect(git('show', `${head}:README.md`)).toContain('Pays for carts.');
    await slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes(`Opened draft PR #${pull!.number}`), 10_000);

    // Pressing again does not open a second pull request.
    await press('U0LEAD');
    await expect
      .poll(
        () =>
          slack.ephemerals
            .filter((e) => e.user === 'U0LEAD')
            .map((e) => e.text)
            .join(' '),
        { timeout: 10_000 },
      )
      .toContain('already requested');
    expect(github.pulls('acme', 'checkout')).toHaveLength(1);
  });

  it("re-triages with the responders' notes when an approver asks", async () => {
    const { slack, anthropic } = world;
    anthropic.setScript(triageScript([suspectSha], 'Still the empty-cart change; the CDN rollback did not help'));
    const noteMessage = slack.messages('C0INC', cardTs).find((m) => blocksOf(m).includes('wrench_triage_retriage'))!;
    const value = (JSON.parse(blocksOf(noteMessage)) as Array<{ type: string; elements?: Array<{ value: string }> }>).find((b) => b.type === 'actions')!
      .elements![0]!.value;
    const modelCalls = anthropic.requests.length;
    await slack.deliverInteraction(
      `${world.wrench!.url}/slack/events`,
      SIGNING_SECRET,
      blockActionsPayload({ user: 'U0LEAD', channel: 'C0INC', message_ts: noteMessage.ts, thread_ts: cardTs, action_id: 'wrench_triage_retriage', value }),
    );
    await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === cardTs && String(c.args.text).includes('the CDN rollback did not help'),
      90_000,
    );
    const task = JSON.stringify(anthropic.requests[modelCalls]!.body.messages[0]);
    expect(task).toContain('Rolled back the CDN config at 14:20');
    expect(task).not.toContain('[Wrench] Automated triage');
    await expect.poll(() => world.pagerduty.notes(incidentId).length, { timeout: 10_000 }).toBe(3);
    expect(world.pagerduty.notes(incidentId)[2]!.content).toContain('[Wrench] Re-triage');
  });

  it('starts a bug-fixing run in the thread on "Open fix PR", with the findings as untrusted context', async () => {
    const { slack, anthropic } = world;
    anthropic.setScript([
      toolUseResponse([
        {
          name: 'finish_task',
          input: { summary: 'Looked at the cart; no change made in this scripted run.', filesChanged: [], verification: 'none', openQuestions: [] },
        },
      ]),
    ]);
    const report = slack.messages('C0INC', cardTs).find((m) => blocksOf(m).includes('wrench_triage_fix'))!;
    const value = (JSON.parse(blocksOf(report)) as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>)
      .find((b) => b.type === 'actions')!
      .elements!.find((e) => e.action_id === 'wrench_triage_fix')!.value;
    const modelCalls = anthropic.requests.length;
    await slack.deliverInteraction(
      `${world.wrench!.url}/slack/events`,
      SIGNING_SECRET,
      blockActionsPayload({ user: 'U0LEAD', channel: 'C0INC', message_ts: report.ts, thread_ts: cardTs, action_id: 'wrench_triage_fix', value }),
    );
    await expect.poll(() => anthropic.requests.length, { timeout: 60_000 }).toBeGreaterThan(modelCalls);
    const request = anthropic.requests[modelCalls]!.body;
    expect(JSON.stringify(request.system)).toContain('Write a regression test that fails before the fix');
    const task = JSON.stringify(request.messages[0]);
    expect(task).toContain('Category: bug-fixing');
    expect(task).toContain('Fix the root cause of PagerDuty incident #');
    expect(task).toMatch(/<untrusted>.*suspect commit/);
    // The fix run answers in the incident thread, in its streamed message (the default).
    await threadReply(world, cardTs, /no change made in this scripted run/, 150_000);
  });

  it('dismisses a report for an approver only: its buttons go and who dismissed it is shown', async () => {
    const { slack } = world;
    const report = slack.messages('C0INC', cardTs).find((m) => blocksOf(m).includes('wrench_triage_dismiss'))!;
    const value = (JSON.parse(blocksOf(report)) as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>)
      .find((b) => b.type === 'actions')!
      .elements!.find((e) => e.action_id === 'wrench_triage_dismiss')!.value;
    const press = (user: string) =>
      slack.deliverInteraction(
        `${world.wrench!.url}/slack/events`,
        SIGNING_SECRET,
        blockActionsPayload({ user, channel: 'C0INC', message_ts: report.ts, thread_ts: cardTs, action_id: 'wrench_triage_dismiss', value }),
      );
    await press('U0INTERN');
    await expect.poll(() => slack.ephemerals.find((e) => e.user === 'U0INTERN')?.text, { timeout: 10_000 }).toContain('Only approvers');
    expect(slack.callsTo('chat.update').some((c) => c.args.ts === report.ts)).toBe(false);
    await press('U0LEAD');
    const update = await slack.waitFor((c) => c.method === 'chat.update' && c.args.ts === report.ts, 10_000);
    expect(blocksOf(update)).toContain('Dismissed by <@U0LEAD>');
    expect(blocksOf(update)).not.toContain('wrench_triage_revert');
  });

  it('triages "@wrench triage: ..." on the channel repository without PagerDuty', async () => {
    const { slack, anthropic, github } = world;
    anthropic.setScript(triageScript([docsSha, suspectSha], 'Manual: the empty-cart change'));
    const notes = world.pagerduty.notes().length;
    const envelope = appMentionEnvelope({ channel: 'C0INC', user: 'U0LEAD', text: '<@U0BOT> triage: checkout returns 500 on POST /pay since 14:05 UTC' });
    await slack.deliverEvent(`${world.wrench!.url}/slack/events`, SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const report = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && String(c.args.text).includes('Manual: the empty-cart change'),
      90_000,
    );
    expect(String(report.args.text)).toContain('Triage of acme/checkout');
    expect(world.pagerduty.notes()).toHaveLength(notes);
    expect(github.pulls('acme', 'checkout')).toHaveLength(1);
  });

  it('answers a conflicting revert clearly and pushes nothing, and points at the open revert of an already reverted commit', async () => {
    const { slack, github } = world;
    // A later change on main rewrites the lines the docs commit added, so reverting that commit conflicts.
    await github.commit('acme', 'checkout', 'main', { message: 'Docs: rewrite', files: { 'README.md': '# checkout\n\nTakes payments for carts.\n' } });
    const manualReport = slack
      .messages('C0INC')
      .filter((m) => m.thread_ts && m.thread_ts !== cardTs && blocksOf(m).includes('wrench_triage_revert:0'))
      .pop()!;
    const buttons = (JSON.parse(blocksOf(manualReport)) as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>).find(
      (b) => b.type === 'actions',
    )!.elements!;
    const press = (actionId: string) =>
      slack.deliverInteraction(
        `${world.wrench!.url}/slack/events`,
        SIGNING_SECRET,
        blockActionsPayload({
          user: 'U0LEAD',
          channel: 'C0INC',
          message_ts: manualReport.ts,
          thread_ts: manualReport.thread_ts,
          action_id: actionId,
          value: buttons.find((e) => e.action_id === actionId)!.value,
        }),
      );

    await press('wrench_triage_revert:0');
    const conflict = await slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes('could not revert'), 150_000);
    expect(String(conflict.args.text)).toContain(docsSha.slice(0, 7));
    expect(String(conflict.args.text)).toContain('README.md');
    expect(String(conflict.args.text)).toContain('Nothing was pushed.');
    expect(await github.branchSha('acme', 'checkout', `wrench/revert-${docsSha.slice(0, 7)}`)).toBeUndefined();

    await press('wrench_triage_revert:1');
    const existing = await slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes('already being reverted'), 150_000);
    expect(String(existing.args.text)).toContain('/pull/1');
    expect(github.pulls('acme', 'checkout')).toHaveLength(1);
  });

  it('applies an incident update to its card while a triage run is still in progress (incident events have their own queue)', async () => {
    const { slack, anthropic, pagerduty } = world;
    // One job at a time per queue (limits.concurrency: 1), and this triage's model call is held until released.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const verdict = 'Held triage: the card moved on meanwhile';
    const finishItem = triageScript([suspectSha], verdict)[1]!;
    anthropic.setScript([
      async () => {
        await held;
        return finishItem;
      },
    ]);
    const id = pagerduty.addIncident({ title: 'Payments latency above 2 s', service: 'PABC123', urgency: 'high' }).id;
    const modelCalls = anthropic.requests.length;
    expect((await world.sendWebhook(incidentWebhook('incident.triggered', pagerduty.incidentJson(id)))).status).toBe(202);
    await anthropic.waitForRequests(modelCalls + 1, 60_000);
    const card = slack.messages('C0INC').find((m) => (!m.thread_ts || m.thread_ts === m.ts) && blocksOf(m).includes('Payments latency above 2 s'))!;
    expect(card).toBeDefined();

    const bob = { id: 'PBOB', type: 'user_reference', summary: 'Bob Responder' };
    const acked = incidentWebhook('incident.acknowledged', { ...pagerduty.incidentJson(id), status: 'acknowledged' }, { agent: bob });
    expect((await world.sendWebhook(acked)).status).toBe(202);
    const update = await slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === card.ts && blocksOf(c).includes('Acknowledged by Bob Responder'),
      30_000,
    );
    expect(blocksOf(update)).toContain(':large_yellow_circle: Acknowledged');
    // The triage is still running: its job is active and nothing of its report is in the thread yet.
    expect(await world.triageJobState(jobIdFor('triage', id))).toBe('active');
    expect(slack.messages('C0INC', card.ts).some((m) => m.text.includes(verdict))).toBe(false);

    release();
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts && String(c.args.text).includes(verdict), 60_000);
  });
});
