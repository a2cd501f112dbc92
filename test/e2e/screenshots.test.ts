import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageDimensions } from '../fakes/anthropic/image-checks.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';
import { mention, replyIn, requestsOf, taskText } from './category-helpers.js';
import { finishStep, scriptByRun } from './scripted-runs.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { SIGNING_SECRET } from './e2e-world.js';

const CONFIG = `
channels:
  C0SHOT: { repo: acme/site, baseBranch: main }
sandbox: { mode: bwrap }
`;

type Block = { type: string; text?: string; source?: { type: string; media_type: string; data: string } };

/** The image blocks of a model request's first user message, in order. */
const imagesIn = (body: unknown) => {
  const content = (body as { messages: Array<{ content: unknown }> }).messages[0]?.content;
  return Array.isArray(content) ? (content as Block[]).filter((block) => block.type === 'image') : [];
};

const plainPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 250, g: 250, b: 250 } } })
    .composite([{ input: { create: { width: Math.ceil(width / 3), height: Math.ceil(height / 4), channels: 3, background: '#cc0000' } }, top: 10, left: 10 }])
    .png()
    .toBuffer();

describe('screenshots and images attached in Slack reach the model, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'site', { 'README.md': '# Site\n', 'src/banner.js': "export const banner = 'old';\n" });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('a PNG screenshot on the mention goes to the model as an image block; a CSV beside it keeps its own path', async () => {
    const { slack, anthropic } = world;
    const script = scriptByRun({ 'banner-one': [finishStep('Read the screenshot: the banner is red. banner-one done')] });
    anthropic.setScript(script.items);
    const screenshot = await plainPng(800, 600);
    const png = slack.addFile({ name: 'Screenshot 2026-11-29 at 10.12.png', content: screenshot, mimetype: 'image/png' });
    const csv = slack.addFile({ name: 'visits.csv', content: 'day,visits\nmon,3\n', mimetype: 'text/csv' });
    const downloadsBefore = slack.callsTo('file_download').length;

    const ts = await mention(world, 'C0SHOT', 'banner-one: make src/banner.js export the banner text shown in the attached screenshot', [png, csv]);
    await replyIn(world, ts, /banner-one done/);

    const [first] = requestsOf(world, 'banner-one');
    const images = imagesIn(first);
    expect(images).toHaveLength(1);
    // The screenshot as it was attached: small enough to go as it is, its type read from its bytes.
    expect(images[0]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: screenshot.toString('base64') });
    const content = (first as { messages: Array<{ content: Block[] }> }).messages[0]!.content;
    expect(content[0]!.text).toMatch(/An image was attached in the Slack thread of this request\. .*untrusted data/);
    expect(content[1]!.text).toBe('Image 1: "Screenshot 2026-11-29 at 10.12.png" (800×600 px)');
    expect(content.at(-1)!.type).toBe('text');
    expect(taskText(first)).toContain('<instruction>');
    // Only the image was downloaded (with the bot token): a CSV on a change that is no data analysis stays where it is.
    const downloads = slack.callsTo('file_download').slice(downloadsBefore);
    expect(downloads.map((d) => d.args.file_id)).toEqual([png.id]);
    expect(downloads[0]!.token).toMatch(/^xoxb-/);
    expect(JSON.stringify(first)).not.toContain('day,visits');
  });

  it('an image too large for the API arrives scaled within its limits and is accepted; one that is no image is said in the thread', async () => {
    const { slack, anthropic } = world;
    const script = scriptByRun({ 'banner-two': [finishStep('Read the long screenshot. banner-two done')] });
    anthropic.setScript(script.items);
    const long = await plainPng(9000, 1400);
    expect(imageDimensions(long)).toEqual({ width: 9000, height: 1400 });
    const big = slack.addFile({ name: 'full-page.png', content: long, mimetype: 'image/png' });
    const fake = slack.addFile({ name: 'error.png', content: '<html>this is not a picture</html>', mimetype: 'image/png' });

    const ts = await mention(world, 'C0SHOT', 'banner-two: make src/banner.js match the attached full-page screenshot', [big, fake]);
    const { text } = await replyIn(world, ts, /banner-two done/);

    const [first] = requestsOf(world, 'banner-two');
    const images = imagesIn(first);
    expect(images).toHaveLength(1);
    expect(images[0]!.source!.media_type).toBe('image/png');
    const sent = imageDimensions(Buffer.from(images[0]!.source!.data, 'base64'));
    expect(sent).toEqual({ width: 2576, height: 401 });
    expect(JSON.stringify(first)).toContain('scaled down from 9000×1400 px to 2576×401 px');
    // The fake (which refuses what the API refuses) took the request: the run finished with the model's report.
    expect(text).toContain('banner-two done');
    // The file that only claims to be a PNG was not sent, and the thread was told why (in the run's streamed message).
    const said = JSON.stringify(slack.streamsIn('C0SHOT', ts));
    expect(said).toContain('`error.png` is not a PNG, JPEG, GIF or WebP image (by its content), so it was not sent.');
    expect(said).not.toContain('full-page.png');
  });

  it("a follow-up in the thread sends the images of its own messages, not the earlier run's again", async () => {
    const { slack, anthropic } = world;
    const script = scriptByRun({
      'banner-three': [finishStep('First look. banner-three done')],
      'banner-four': [finishStep('Second look. banner-four done')],
    });
    anthropic.setScript(script.items);
    const firstShot = await plainPng(300, 200);
    const ts = await mention(world, 'C0SHOT', 'banner-three: make src/banner.js export the text in this screenshot', [
      slack.addFile({ name: 'before.png', content: firstShot, mimetype: 'image/png' }),
    ]);
    await replyIn(world, ts, /banner-three done/);

    // Bob adds a JPEG to the thread; then Alice asks for a follow-up.
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    slack.seedMessage('C0SHOT', {
      user: 'U0BOB',
      text: 'this is how it looks in Safari',
      thread_ts: ts,
      files: [slack.addFile({ name: 'safari.jpg', content: jpeg, mimetype: 'image/jpeg' })],
    });
    const followUp = appMentionEnvelope({ channel: 'C0SHOT', user: 'U0ALICE', text: '<@U0BOT> banner-four: now fix it for Safari too', thread_ts: ts });
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, followUp);
    await replyIn(world, ts, /banner-four done/);

    const [first] = requestsOf(world, 'banner-three');
    expect(imagesIn(first).map((b) => b.source!.data)).toEqual([firstShot.toString('base64')]);
    const [second] = requestsOf(world, 'banner-four');
    expect(imagesIn(second).map((b) => [b.source!.media_type, b.source!.data])).toEqual([['image/jpeg', jpeg.toString('base64')]]);
    expect(JSON.stringify(second)).toContain('Image 1: \\"safari.jpg\\"');
  });
});
