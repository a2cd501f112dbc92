/** The image types the Messages API reads (its `media_type` values), and none other. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/**
 * What the bytes are, by their signature (magic number): PNG, JPEG, GIF (87a or 89a) or WebP (a RIFF container of
 * WEBP); undefined for anything else, whatever its name or the mimetype Slack gave it.
 */
export function detectImageType(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  const head = ascii(bytes, 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

const IMAGE_NAME = /\.(png|jpe?g|jpe|gif|webp)$/i;

/** Whether a file says it is an image (an `image/*` mimetype, or an image's extension): its bytes decide what it is. */
export function claimsImage(file: { name: string; mimetype?: string }): boolean {
  return /^image\//i.test(file.mimetype ?? '') || IMAGE_NAME.test(file.name);
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return bytes.length >= end ? String.fromCharCode(...bytes.subarray(start, end)) : '';
}
