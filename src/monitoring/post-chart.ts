import type { WebClient } from '@slack/web-api';
import { WrenchError } from '../errors.js';

export interface ChartUpload {
  readonly channel: string;
  readonly threadTs: string;
  readonly filename: string;
  readonly title: string;
  readonly altText: string;
  readonly png: Buffer;
  readonly comment?: string;
}

/** Shares a PNG in a thread through files.getUploadURLExternal, the upload itself, and files.completeUploadExternal. */
export async function postChartToThread(client: WebClient, upload: ChartUpload): Promise<string> {
  const target = await client.files.getUploadURLExternal({ filename: upload.filename, length: upload.png.length, alt_text: upload.altText });
  if (!target.upload_url || !target.file_id)
    throw new WrenchError('slack_upload_failed', 'Slack gave no upload URL for the chart; check the app has the files:write scope.');
  const sent = await fetch(target.upload_url, { method: 'POST', body: new Uint8Array(upload.png), headers: { 'content-type': 'image/png' } });
  if (!sent.ok) throw new WrenchError('slack_upload_failed', `Slack refused the chart upload (HTTP ${sent.status}); the triage report is posted without it.`);
  await client.files.completeUploadExternal({
    files: [{ id: target.file_id, title: upload.title }],
    channel_id: upload.channel,
    thread_ts: upload.threadTs,
    ...(upload.comment ? { initial_comment: upload.comment } : {}),
  });
  return target.file_id;
}
