import type Anthropic from '@anthropic-ai/sdk';
import { collectRequestImages, describeSent, imageContent, type RequestImages } from '../src/inputs/request-images.js';
import type { ImageStrings } from '../src/inputs/image-strings.js';
import { IMAGE_POLICY } from '../src/inputs/prepare-image.js';
import type { Logger } from '../src/logging/logger.js';
import type { TaskJob } from '../src/queue/task-job.js';
import type { RunReporter } from '../src/reporting/run-result.js';
import type { RunRecorder } from '../src/run-log/run-recorder.js';
import { compareSlackTs } from '../src/slack/message-input-files.js';
import { escapeMrkdwn, truncate } from '../src/slack/slack-escape.js';
import { stringsFor } from '../src/slack/strings/index.js';
import type { RunRecord } from '../src/sessions/thread-session.js';

/**
 * The request's images for its first user message: for a run asked in Slack (not from GitHub), the images attached to
 * the thread's messages after the previous request's message up to this one (from the thread's start for its first
 * run). What claims to be an image but did not reach the agent is said in the thread, in its language; what was sent is
 * noted on the run page. Other attachments keep their own path (a data analysis stages them). Never throws.
 */
export function requestImages(
  job: TaskJob,
  context: { reporter: RunReporter; previousRequestTs?: string; record?: RunRecorder; log: Logger; early?: boolean },
): (() => Promise<Anthropic.Messages.ContentBlockParam[]>) | undefined {
  const source = context.reporter.inputFiles;
  if (job.origin.type !== 'slack' || job.github || job.localPath || !source?.threadFiles) return undefined;
  const threadFiles = source.threadFiles.bind(source);
  // Reading the thread is a Slack round trip (and the downloads): `early` starts it now, beside the workspace, rather
  // than just before the first model call. What it found is said only when the images are asked for.
  let found: Promise<RequestImages> | undefined;
  const find = () => (found ??= threadFiles(context.previousRequestTs).then((files) => collectRequestImages(files)));
  if (context.early) find().catch(() => undefined);
  return async () => {
    try {
      const images = await find();
      if (images.sent.length) context.record?.note(`Images sent to the model: ${images.sent.map(describeSent).join(', ')}`);
      if (images.skipped.length) {
        context.log.info({ skipped: images.skipped }, 'attached images not sent to the model');
        context.record?.note(`Images not sent: ${images.skipped.map((s) => `${s.name} (${s.why})`).join(', ')}`, 'warning');
        for (const note of notSentNotes(images.skipped, stringsFor(job.language).images)) await context.reporter.note?.(note);
      }
      return imageContent(images.sent);
    } catch (error) {
      context.log.warn({ err: error }, 'could not read the images attached in the thread');
      return [];
    }
  };
}

/** The latest earlier request of the thread (its message ts), before `messageTs`: a follow-up's images start after it. */
export function previousRequestTs(runs: readonly RunRecord[], jobId: string, messageTs: string): string | undefined {
  return runs
    .flatMap((run) => (run.jobId !== jobId && run.messageTs && compareSlackTs(run.messageTs, messageTs) < 0 ? [run.messageTs] : []))
    .sort(compareSlackTs)
    .at(-1);
}

/** One note for each image that did not reach the agent; those over the count together. */
export function notSentNotes(skipped: RequestImages['skipped'], t: ImageStrings): string[] {
  const name = (raw: string) => `\`${escapeMrkdwn(truncate(raw.replace(/[`\n\r]/g, "'"), 80))}\``;
  const notes = skipped.flatMap(({ name: raw, why }) => {
    if (why === 'too_many') return [];
    const say = { not_image: t.notImage, unreadable: t.unreadable, too_large: t.tooLarge, not_downloaded: t.notDownloaded }[why];
    return [say(name(raw))];
  });
  const over = skipped.filter((s) => s.why === 'too_many').map((s) => name(s.name));
  if (over.length) notes.push(t.tooMany(IMAGE_POLICY.maxImages, truncate(over.join(', '), 1500)));
  return notes.map((note) => `:frame_with_picture: ${note}`);
}
