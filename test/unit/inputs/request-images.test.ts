import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { estimateTokens, IMAGE_TOKENS } from '../../../src/agent/context-window.js';
import { WrenchError } from '../../../src/errors.js';
import type { InputFile } from '../../../src/inputs/input-files.js';
import { collectRequestImages, imageContent } from '../../../src/inputs/request-images.js';
import { IMAGE_POLICY } from '../../../src/inputs/prepare-image.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import { notSentNotes, previousRequestTs } from '../../../runners/request-images.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#eeeeee' } })
    .png()
    .toBuffer();

/** An attachment whose download returns `bytes` (or fails with `error`); `downloads` counts the downloads. */
function file(name: string, bytes: Buffer | Error, mimetype?: string, downloads = { count: 0 }): InputFile {
  return {
    name,
    size: bytes instanceof Error ? 10 : bytes.length,
    mimetype,
    download: async () => {
      downloads.count += 1;
      if (bytes instanceof Error) throw bytes;
      return bytes;
    },
  };
}

describe("a request's images", () => {
  it('sends the real images in order, leaves other files alone without downloading them, and says why the rest were not sent', async () => {
    const downloads = { count: 0 };
    const result = await collectRequestImages([
      file('a.png', await png(20, 10), 'image/png', downloads),
      file('notes.csv', Buffer.from('a,b\n'), 'text/csv', downloads),
      file('fake.png', Buffer.from('<html>login</html>'), 'image/png', downloads),
      file('gone.jpg', new WrenchError('input_download_failed', 'HTTP 404'), 'image/jpeg', downloads),
      file('huge.png', new WrenchError('input_too_large', 'too large'), 'image/png', downloads),
    ]);
    expect(result.sent.map((s) => [s.name, s.image.mediaType, s.image.width])).toEqual([['a.png', 'image/png', 20]]);
    expect(result.skipped).toEqual([
      { name: 'fake.png', why: 'not_image' },
      { name: 'gone.jpg', why: 'not_downloaded' },
      { name: 'huge.png', why: 'too_large' },
    ]);
    expect(downloads.count).toBe(4);
  });

  it('keeps the first images up to the limit and leaves the others out, each within its share of the request', async () => {
    const small = await png(30, 30);
    const files = Array.from({ length: IMAGE_POLICY.maxImages + 2 }, (_, i) => file(`shot-${i + 1}.png`, small, 'image/png'));
    const result = await collectRequestImages(files);
    expect(result.sent).toHaveLength(IMAGE_POLICY.maxImages);
    expect(result.skipped).toEqual([
      { name: 'shot-21.png', why: 'too_many' },
      { name: 'shot-22.png', why: 'too_many' },
    ]);
    // A tight total budget is shared: each image is compressed to fit its part.
    const noisy = await sharp(Buffer.from(Array.from({ length: 600 * 400 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 600, height: 400, channels: 3 },
    })
      .png()
      .toBuffer();
    const shared = await collectRequestImages([file('x.png', noisy), file('y.png', noisy)], { ...IMAGE_POLICY, totalBase64Bytes: 120_000 });
    for (const { image } of shared.sent) expect(image.data.length).toBeLessThanOrEqual(60_000);
  });

  it('puts each image after a line naming it (quoted), all before the task, and nothing when there are none', async () => {
    const { sent } = await collectRequestImages([file('the "login" page.png', await png(10, 10), 'image/png')]);
    const content = imageContent(sent);
    expect(content.map((block) => block.type)).toEqual(['text', 'text', 'image']);
    expect(content[1]).toEqual({ type: 'text', text: 'Image 1: "the \\"login\\" page.png" (10×10 px)' });
    expect(imageContent([])).toEqual([]);
  });

  it('the thread is told in its language, one note an image, names escaped in backticks', () => {
    const skipped = [
      { name: 'a<@U1>`.png', why: 'not_image' as const },
      { name: 'b.png', why: 'too_many' as const },
      { name: 'c.png', why: 'too_many' as const },
    ];
    expect(notSentNotes(skipped, stringsFor('en').images)).toEqual([
      ":frame_with_picture: `a&lt;@U1&gt;'.png` is not a PNG, JPEG, GIF or WebP image (by its content), so it was not sent.",
      ':frame_with_picture: Only the first 20 images are sent; left out: `b.png`, `c.png`.',
    ]);
    expect(notSentNotes([{ name: 'x.png', why: 'unreadable' }], stringsFor('de').images)).toEqual([
      ':frame_with_picture: `x.png` ließ sich nicht als Bild lesen (es ist beschädigt oder unvollständig).',
    ]);
  });

  it("a follow-up's images start after the thread's latest earlier request", () => {
    const runs = [
      { jobId: 'j1', messageTs: '1700000000.000100' },
      { jobId: 'j2', messageTs: '1700000000.000900' },
      { jobId: 'j3', messageTs: '1700000001.000050' },
      { jobId: 'j4' },
    ].map((run) => ({ instruction: 'x', requester: 'U1', status: 'done' as const, at: '', ...run }));
    expect(previousRequestTs(runs, 'j3', '1700000001.000050')).toBe('1700000000.000900');
    expect(previousRequestTs(runs, 'j1', '1700000000.000100')).toBeUndefined();
  });

  it('an image counts as image tokens, not as its base64, when the conversation is measured', async () => {
    const data = (await png(400, 400)).toString('base64').repeat(20);
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
          { type: 'text', text: 'hi' },
        ],
      },
    ];
    const tokens = estimateTokens(messages);
    expect(tokens).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(tokens).toBeLessThan(IMAGE_TOKENS + 100);
  });
});
