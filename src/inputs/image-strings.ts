/**
 * What the thread is told of an image attached to a request that did not reach the agent, one note each, in English
 * (the source the thread catalogues translate). `name` comes in backticks, escaped.
 */
export const imagesEn = {
  notImage: (name: string) => `${name} is not a PNG, JPEG, GIF or WebP image (by its content), so it was not sent.`,
  unreadable: (name: string) => `${name} could not be read as an image (it is damaged or incomplete).`,
  tooLarge: (name: string) => `${name} is too large to send, even scaled down.`,
  notDownloaded: (name: string) => `${name} could not be downloaded from Slack.`,
  tooMany: (max: number, names: string) => `Only the first ${max} images are sent; left out: ${names}.`,
};

export type ImageStrings = typeof imagesEn;
