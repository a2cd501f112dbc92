/**
 * The Messages API's checks of image blocks (docs: Images and vision; the 400 invalid_request_error messages it
 * answers with): the media type one of four, valid base64, at most 5 MB of it, bytes of the type it says, at most
 * 8000 px a side (2000 px when the request has more than 20 images), at most 100 images. The fake reads the
 * images' headers itself, independently of what Wrench scales them with.
 */
export const IMAGE_CHECK_LIMITS = { maxImages: 100, maxEdge: 8000, manyImagesEdge: 2000, manyImagesAbove: 20, maxBase64Bytes: 5_242_880 } as const;

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

interface ImageAt {
  /** `messages.0.content.1` or `messages.3.content.0.tool_result.content.1`. */
  path: string;
  block: Record<string, any>;
}

/** The 400 message for the first image the API would refuse, or undefined. */
export function imageProblem(messages: any[]): string | undefined {
  const images = imagesIn(messages);
  if (images.length > IMAGE_CHECK_LIMITS.maxImages) return `too many images and documents: ${images.length} + 0 > ${IMAGE_CHECK_LIMITS.maxImages}`;
  const maxEdge = images.length > IMAGE_CHECK_LIMITS.manyImagesAbove ? IMAGE_CHECK_LIMITS.manyImagesEdge : IMAGE_CHECK_LIMITS.maxEdge;
  for (const { path, block } of images) {
    const source = block.source ?? {};
    if (source.type !== 'base64') continue;
    const at = `${path}.image.source.base64`;
    if (!MEDIA_TYPES.includes(source.media_type)) return `${at}.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
    const data = typeof source.data === 'string' ? source.data : '';
    if (!isBase64(data)) return `${at}: invalid base64 data`;
    if (data.length > IMAGE_CHECK_LIMITS.maxBase64Bytes)
      return `${at}: image exceeds 5 MB maximum: ${data.length} bytes > ${IMAGE_CHECK_LIMITS.maxBase64Bytes} bytes`;
    const bytes = Buffer.from(data, 'base64');
    const actual = sniff(bytes);
    if (!actual) return `${at}.data: Image does not match the provided media type ${source.media_type}`;
    if (actual !== source.media_type)
      return `${at}: The image was specified using the ${source.media_type} media type, but the image appears to be a ${actual} image`;
    const size = dimensions(bytes, actual);
    if (!size) return `${at}.data: Could not process image`;
    if (size.width > maxEdge || size.height > maxEdge) {
      return maxEdge === IMAGE_CHECK_LIMITS.maxEdge
        ? `${at}.data: At least one of the image dimensions exceed max allowed size: ${maxEdge} pixels`
        : `${at}.data: At least one of the image dimensions exceed max allowed size for many-image requests: ${maxEdge} pixels`;
    }
  }
  return undefined;
}

/** The width and height an image's header gives, as the fake reads them. */
export function imageDimensions(bytes: Buffer): { width: number; height: number } | undefined {
  const type = sniff(bytes);
  return type ? dimensions(bytes, type) : undefined;
}

function imagesIn(messages: any[]): ImageAt[] {
  return messages.flatMap((message, m) =>
    (Array.isArray(message?.content) ? message.content : []).flatMap((block: any, c: number) => {
      const path = `messages.${m}.content.${c}`;
      if (block?.type === 'image') return [{ path, block }];
      if (block?.type !== 'tool_result' || !Array.isArray(block.content)) return [];
      return block.content.flatMap((inner: any, i: number) => (inner?.type === 'image' ? [{ path: `${path}.tool_result.content.${i}`, block: inner }] : []));
    }),
  );
}

function isBase64(data: string): boolean {
  return data.length > 0 && data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data);
}

function sniff(bytes: Buffer): string | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (/^GIF8[79]a/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

function dimensions(bytes: Buffer, type: string): { width: number; height: number } | undefined {
  try {
    if (type === 'image/png')
      return bytes.subarray(12, 16).toString('latin1') === 'IHDR' ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : undefined;
    if (type === 'image/gif') return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
    if (type === 'image/jpeg') return jpegDimensions(bytes);
    return webpDimensions(bytes);
  } catch {
    return undefined;
  }
}

/** The first start-of-frame marker's size (SOF0–SOF15, not DHT, JPG or DAC). */
function jpegDimensions(bytes: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

function webpDimensions(bytes: Buffer): { width: number; height: number } | undefined {
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return undefined;
}
