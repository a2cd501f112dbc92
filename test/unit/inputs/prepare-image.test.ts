import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { claimsImage, detectImageType } from '../../../src/inputs/image-type.js';
import { API_IMAGE_LIMITS, base64Length, IMAGE_POLICY, prepareImage } from '../../../src/inputs/prepare-image.js';

/** A plain image of one colour, in `format`. */
const plain = (width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'webp') =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    [format]()
    .toBuffer();

/** Random pixels: nothing compresses them, so a PNG of them is as large as it gets. */
const noise = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();

const limits = { maxEdge: IMAGE_POLICY.maxEdge, maxBase64Bytes: API_IMAGE_LIMITS.maxBase64Bytes };

describe('the type of an attachment, from its bytes', () => {
  it('knows PNG, JPEG, GIF and WebP by their signatures, whatever the file is called', async () => {
    expect(detectImageType(await plain(4, 4, 'png'))).toBe('image/png');
    expect(detectImageType(await plain(4, 4, 'jpeg'))).toBe('image/jpeg');
    expect(detectImageType(await plain(4, 4, 'gif'))).toBe('image/gif');
    expect(detectImageType(await plain(4, 4, 'webp'))).toBe('image/webp');
    expect(detectImageType(Buffer.from('GIF87a\x01\x00\x01\x00'))).toBe('image/gif');
  });

  it('knows no image in text, a PDF, a RIFF that is not WebP, or a few bytes', () => {
    expect(detectImageType(Buffer.from('<html>Sign in to Slack</html>'))).toBeUndefined();
    expect(detectImageType(Buffer.from('%PDF-1.7\n'))).toBeUndefined();
    expect(detectImageType(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt '))).toBeUndefined();
    expect(detectImageType(Buffer.from([0x89, 0x50]))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('a file claims to be an image by its mimetype or its extension', () => {
    expect(claimsImage({ name: 'screen', mimetype: 'image/png' })).toBe(true);
    expect(claimsImage({ name: 'Screenshot 2026-11-29.PNG' })).toBe(true);
    expect(claimsImage({ name: 'photo.jpeg', mimetype: 'application/octet-stream' })).toBe(true);
    expect(claimsImage({ name: 'scan.heic', mimetype: 'image/heic' })).toBe(true);
    expect(claimsImage({ name: 'sales.csv', mimetype: 'text/csv' })).toBe(false);
    expect(claimsImage({ name: 'png-notes.txt', mimetype: 'text/plain' })).toBe(false);
  });
});

describe('an image made ready for the model', () => {
  it('sends an image within the limits as it is: the same bytes, its own type', async () => {
    const png = await plain(800, 600, 'png');
    const image = await prepareImage(png, limits);
    expect(image).toMatchObject({ mediaType: 'image/png', width: 800, height: 600, scaled: false });
    expect(image.data).toBe(png.toString('base64'));
  });

  it('trusts the bytes over the name: a JPEG named .png is sent as image/jpeg', async () => {
    const image = await prepareImage(await plain(50, 40, 'jpeg'), limits);
    expect(image.mediaType).toBe('image/jpeg');
  });

  it('scales a long screenshot down to the long-edge limit, keeping its aspect and its format', async () => {
    const image = await prepareImage(await plain(9000, 1200, 'png'), limits);
    expect(image).toMatchObject({ mediaType: 'image/png', width: 2576, height: 343, scaled: true });
    expect(image.original).toMatchObject({ mediaType: 'image/png', width: 9000, height: 1200 });
    const decoded = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect(decoded).toMatchObject({ format: 'png', width: 2576, height: 343 });
  });

  it('turns a large GIF into a PNG of its first frame, and keeps a WebP a WebP', async () => {
    const gif = await prepareImage(await plain(3000, 100, 'gif'), limits);
    expect(gif).toMatchObject({ mediaType: 'image/png', width: 2576, scaled: true });
    expect(detectImageType(Buffer.from(gif.data, 'base64'))).toBe('image/png');
    const webp = await prepareImage(await plain(100, 5000, 'webp'), limits);
    expect(webp).toMatchObject({ mediaType: 'image/webp', height: 2576, scaled: true });
    expect(detectImageType(Buffer.from(webp.data, 'base64'))).toBe('image/webp');
  });

  it('compresses an image too many bytes for the size limit until its base64 fits, as a JPEG', async () => {
    const png = await noise(2000, 1500);
    expect(base64Length(png.length)).toBeGreaterThan(API_IMAGE_LIMITS.maxBase64Bytes);
    const image = await prepareImage(png, limits);
    expect(image.scaled).toBe(true);
    expect(image.mediaType).toBe('image/jpeg');
    expect(image.data.length).toBeLessThanOrEqual(API_IMAGE_LIMITS.maxBase64Bytes);
    expect(detectImageType(Buffer.from(image.data, 'base64'))).toBe('image/jpeg');
  });

  it('fits a smaller budget (many images share the request) by scaling further down', async () => {
    const image = await prepareImage(await noise(1200, 900), { maxEdge: 2576, maxBase64Bytes: 200_000 });
    expect(image.data.length).toBeLessThanOrEqual(200_000);
    expect(image.width).toBeLessThan(1200);
  });

  it('refuses what is no image, a damaged image, and what cannot be made small enough, each with its own code', async () => {
    await expect(prepareImage(Buffer.from('not an image at all'), limits)).rejects.toMatchObject({ code: 'image_not_supported' });
    const png = await plain(400, 300, 'png');
    await expect(prepareImage(png.subarray(0, 60), limits)).rejects.toMatchObject({ code: 'image_unreadable' });
    await expect(prepareImage(await noise(300, 300), { maxEdge: 2576, maxBase64Bytes: 100 })).rejects.toMatchObject({ code: 'image_too_large' });
  });
});
