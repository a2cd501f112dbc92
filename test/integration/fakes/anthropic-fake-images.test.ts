import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicFake, textResponse, type AnthropicFake } from '../../fakes/anthropic-fake.js';
import { imageDimensions } from '../../fakes/anthropic/image-checks.js';

const MODEL = 'claude-sonnet-5-5';

type MediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
const image = (data: Buffer | string, mediaType: string): Anthropic.ImageBlockParam => ({
  type: 'image',
  source: { type: 'base64', media_type: mediaType as MediaType, data: typeof data === 'string' ? data : data.toString('base64') },
});
const plain = (width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'webp') =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } })
    [format]()
    .toBuffer();

describe('the anthropic fake reads image blocks as the Messages API does', () => {
  let fake: AnthropicFake;
  let client: Anthropic;

  beforeAll(async () => {
    fake = await startAnthropicFake();
    client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 });
  });
  beforeEach(() => {
    fake.setScript([]);
    fake.requests.length = 0;
  });
  afterAll(() => fake.stop());

  /** The API's 400 for these blocks (the script is not used), as the SDK raises it. */
  const refused = async (blocks: Anthropic.ContentBlockParam[]) => {
    fake.push(textResponse('never sent'));
    const error = await client.messages
      .create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: [...blocks, { type: 'text', text: 'What does it show?' }] }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(fake.remaining()).toBe(1);
    fake.setScript([]);
    const body = (error as { error: { type: string; error: { type: string; message: string } } }).error;
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    return body.error.message;
  };

  it('takes PNG, JPEG, GIF and WebP images of their own type, in a user turn and in a tool result', async () => {
    fake.push(textResponse('a blue square'));
    const blocks = [image(await plain(64, 48, 'png'), 'image/png'), image(await plain(64, 48, 'jpeg'), 'image/jpeg')];
    blocks.push(image(await plain(64, 48, 'gif'), 'image/gif'), image(await plain(64, 48, 'webp'), 'image/webp'));
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: [...blocks, { type: 'text', text: 'hi' }] }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'a blue square' }]);
    expect(fake.requests[0]!.body.messages[0].content).toHaveLength(5);
  });

  it('refuses a media type it does not read, and bytes of another type than the one given', async () => {
    expect(await refused([image(await plain(8, 8, 'png'), 'image/bmp')])).toBe(
      "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    );
    expect(await refused([image(await plain(8, 8, 'jpeg'), 'image/png')])).toBe(
      'messages.0.content.0.image.source.base64: The image was specified using the image/png media type, but the image appears to be a image/jpeg image',
    );
    expect(await refused([image(Buffer.from('<html>Sign in to Slack</html>'), 'image/png')])).toBe(
      'messages.0.content.0.image.source.base64.data: Image does not match the provided media type image/png',
    );
  });

  it('refuses base64 that is not, and more than 5 MB of it', async () => {
    expect(await refused([image('iVBORw0KGgo*not base64*', 'image/png')])).toBe('messages.0.content.0.image.source.base64: invalid base64 data');
    const big = Buffer.concat([await plain(8, 8, 'png'), randomBytes(4_000_000)]);
    const size = 4 * Math.ceil(big.length / 3);
    expect(await refused([image(big, 'image/png')])).toBe(
      `messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: ${size} bytes > 5242880 bytes`,
    );
  });

  it('refuses an image over 8000 px a side, and over 2000 px when the request has more than 20 images', async () => {
    const tall = await plain(100, 8001, 'png');
    expect(imageDimensions(tall)).toEqual({ width: 100, height: 8001 });
    expect(await refused([image(tall, 'image/png')])).toBe(
      'messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels',
    );
    const small = image(await plain(16, 16, 'png'), 'image/png');
    const wide = image(await plain(2001, 10, 'jpeg'), 'image/jpeg');
    expect(await refused([...Array.from({ length: 20 }, () => small), wide])).toBe(
      'messages.0.content.20.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels',
    );
    // Twenty images of 2001 px are still within the limit.
    fake.push(textResponse('ok'));
    await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: [...Array.from({ length: 19 }, () => small), wide, { type: 'text', text: 'hi' }] }],
    });
  });

  it('refuses more than 100 images in a request', async () => {
    const small = image(await plain(16, 16, 'gif'), 'image/gif');
    expect(await refused(Array.from({ length: 101 }, () => small))).toBe('too many images and documents: 101 + 0 > 100');
  });

  it('reads the dimensions of every format from its header', async () => {
    expect(imageDimensions(await plain(321, 123, 'png'))).toEqual({ width: 321, height: 123 });
    expect(imageDimensions(await plain(321, 123, 'jpeg'))).toEqual({ width: 321, height: 123 });
    expect(imageDimensions(await plain(321, 123, 'gif'))).toEqual({ width: 321, height: 123 });
    expect(imageDimensions(await plain(321, 123, 'webp'))).toEqual({ width: 321, height: 123 });
    expect(
      imageDimensions(
        await sharp({ create: { width: 77, height: 55, channels: 4, background: '#0000' } })
          .webp({ lossless: true })
          .toBuffer(),
      ),
    ).toEqual({
      width: 77,
      height: 55,
    });
  });

  it('answers a request over 32 MB with 413 request_too_large', async () => {
    fake.push(textResponse('never sent'));
    const huge = 'x'.repeat(33 * 1024 * 1024);
    const error = await client.messages
      .create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: huge }] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 413, error: { error: { type: 'request_too_large' } } });
  });
});
