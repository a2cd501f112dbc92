import sharp from 'sharp';
import { WrenchError } from '../errors.js';
import { detectImageType, type ImageMediaType } from './image-type.js';

/**
 * The Messages API's documented limits for images (docs: Images and vision; API errors): at most 100 images in a request
 * (models with a 200k-token context window; 600 for the others), each at most 8000x8000 px — 2000x2000 px when the
 * request has more than 20 —, each at most 5 MB of base64 (5,242,880 bytes: larger is refused with "image exceeds 5 MB
 * maximum"), in a request of at most 32 MB.
 */
export const API_IMAGE_LIMITS = {
  maxImages: 100,
  maxEdge: 8000,
  manyImagesEdge: 2000,
  manyImagesAbove: 20,
  maxBase64Bytes: 5 * 1024 * 1024,
  maxRequestBytes: 32 * 1024 * 1024,
} as const;

/**
 * What Wrench sends, well inside those limits: at most 20 images a run (so 8000 px stays the dimension limit), each
 * scaled to at most 2576 px on its long edge (the most the current models read at full resolution; the API scales a
 * larger image down itself, only slower), and all of them together at most 20 MB of base64, leaving the rest of the
 * 32 MB request to the conversation.
 */
export const IMAGE_POLICY = {
  maxImages: 20,
  maxEdge: 2576,
  totalBase64Bytes: 20 * 1024 * 1024,
  /** Downloads larger than this are not read at all. */
  maxDownloadBytes: 50_000_000,
  /** Decoding stops beyond this many pixels (a 10000x10000 image), whatever the file's size. */
  maxInputPixels: 100_000_000,
} as const;

export interface ImageLimits {
  /** The long edge, in pixels, an image is scaled to fit. */
  maxEdge: number;
  /** The most base64 text the image may take. */
  maxBase64Bytes: number;
}

export interface PreparedImage {
  mediaType: ImageMediaType;
  /** The image's bytes, base64: what goes into the image block's `source.data`. */
  data: string;
  width: number;
  height: number;
  /** As it was attached: its type by its bytes, size and dimensions. */
  original: { mediaType: ImageMediaType; bytes: number; width: number; height: number };
  /** Whether Wrench re-encoded it (scaled down, or compressed to fit the size limit). */
  scaled: boolean;
}

/** The length of the base64 text of `bytes` bytes. */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/**
 * An attachment as the model may read it: its type from its bytes (`image_not_supported` when it is no PNG, JPEG, GIF
 * or WebP, whatever it claims), decoded once to be sure it is whole (`image_unreadable`), and sent as it is when it
 * fits `limits`. A larger one is scaled down (aspect kept, EXIF orientation applied) and re-encoded in its own format
 * (a GIF as a PNG of its first frame); when that is still too many bytes it becomes a JPEG of falling quality, then
 * smaller, until it fits (`image_too_large` only when nothing does).
 */
export async function prepareImage(bytes: Buffer, limits: ImageLimits): Promise<PreparedImage> {
  const mediaType = detectImageType(bytes);
  if (!mediaType) throw new WrenchError('image_not_supported', 'It is not a PNG, JPEG, GIF or WebP image.');
  const { width, height } = await decodable(bytes);
  const original = { mediaType, bytes: bytes.length, width, height };
  const withinEdge = Math.max(width, height) <= limits.maxEdge;
  if (withinEdge && base64Length(bytes.length) <= limits.maxBase64Bytes) {
    return { mediaType, data: bytes.toString('base64'), width, height, original, scaled: false };
  }
  let edge = Math.min(limits.maxEdge, Math.max(width, height));
  let format: 'png' | 'jpeg' | 'webp' = mediaType === 'image/jpeg' ? 'jpeg' : mediaType === 'image/webp' ? 'webp' : 'png';
  let quality = 85;
  while (edge >= 64) {
    const { data, info } = await encode(bytes, edge, format, quality);
    if (base64Length(data.length) <= limits.maxBase64Bytes) {
      return { mediaType: MEDIA_TYPES[format], data: data.toString('base64'), width: info.width, height: info.height, original, scaled: true };
    }
    if (format !== 'jpeg') format = 'jpeg';
    else if (quality > 55) quality -= 15;
    else edge = Math.floor(edge * 0.75);
  }
  throw new WrenchError('image_too_large', `It does not fit in ${Math.round(limits.maxBase64Bytes / 1_000_000)} MB even scaled down.`);
}

const MEDIA_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** Its dimensions (after EXIF orientation), once the whole image decoded without error. */
async function decodable(bytes: Buffer): Promise<{ width: number; height: number }> {
  try {
    const image = sharp(bytes, { limitInputPixels: IMAGE_POLICY.maxInputPixels, failOn: 'error' });
    const meta = await image.metadata();
    // A thumbnail forces a decode of every pixel row: a truncated or corrupt file fails here, not at the API.
    await image.clone().resize({ width: 16, height: 16, fit: 'inside' }).toBuffer();
    const turned = (meta.orientation ?? 1) >= 5;
    const [width, height] = [meta.width ?? 0, meta.height ?? 0];
    if (!width || !height) throw new Error('no dimensions');
    return turned ? { width: height, height: width } : { width, height };
  } catch (error) {
    const pixels = /pixel limit/i.test(String((error as Error).message));
    if (pixels) throw new WrenchError('image_too_large', 'It has more pixels than Wrench decodes (100 megapixels).', { cause: error });
    throw new WrenchError('image_unreadable', 'It could not be read as an image (damaged or incomplete).', { cause: error });
  }
}

function encode(bytes: Buffer, edge: number, format: 'png' | 'jpeg' | 'webp', quality: number) {
  const image = sharp(bytes, { limitInputPixels: IMAGE_POLICY.maxInputPixels })
    .rotate()
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
  const encoded =
    format === 'png'
      ? image.png({ compressionLevel: 9 })
      : format === 'webp'
        ? image.webp({ quality })
        : // JPEG has no transparency: what was see-through is shown on white, as an image viewer would.
          image.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
  return encoded.toBuffer({ resolveWithObject: true });
}
