import { upperId } from '../../shared/ids.js';
import { SlackApiError, type SlackUpload } from '../types.js';
import { optionalArray, optionalString, requiredString, type MethodHandler, type SlackState } from './context.js';

/** Serves a file at its url_private and returns its Slack file object (as in a message's `files`). */
export function hostFile(state: SlackState, input: { name: string; content: string | Buffer; mimetype?: string; user?: string }): Record<string, unknown> {
  const id = upperId('F', 10);
  const bytes = Buffer.isBuffer(input.content) ? input.content : Buffer.from(input.content);
  const mimetype = input.mimetype ?? 'text/plain';
  state.hostedFiles.set(id, { id, name: input.name, mimetype, bytes });
  const extension = input.name.includes('.') ? (input.name.split('.').pop() ?? 'text') : 'text';
  const url = `${state.baseUrl}/files-pri/${state.identity.teamId}-${id}/${encodeURIComponent(input.name)}`;
  return {
    id,
    created: Math.floor(Date.now() / 1000),
    timestamp: Math.floor(Date.now() / 1000),
    name: input.name,
    title: input.name,
    mimetype,
    filetype: extension,
    pretty_type: extension,
    user: input.user ?? 'U0USER',
    mode: 'hosted',
    size: bytes.length,
    url_private: url,
    url_private_download: `${url}?download=1`,
    permalink: `${state.baseUrl}/files/${input.user ?? 'U0USER'}/${id}/${encodeURIComponent(input.name)}`,
  };
}

const getUploadUrlExternal: MethodHandler = (args, state) => {
  const filename = requiredString(args, 'filename', 'invalid_arguments');
  const length = Number(requiredString(args, 'length', 'invalid_arguments'));
  if (!Number.isFinite(length) || length < 0) throw new SlackApiError('invalid_arguments');
  const id = upperId('F', 10);
  state.pendingFiles.set(id, {
    id,
    filename,
    length,
    alt_text: optionalString(args, 'alt_text'),
    snippet_type: optionalString(args, 'snippet_type'),
  });
  return { upload_url: `${state.baseUrl}/upload/v1/${id}`, file_id: id };
};

const completeUploadExternal: MethodHandler = (args, state) => {
  const requested = (optionalArray(args, 'files') ?? []) as { id?: string; title?: string }[];
  if (requested.length === 0) throw new SlackApiError('invalid_arguments');
  const channel = optionalString(args, 'channel_id') ?? optionalString(args, 'channels')?.split(',')[0];
  const threadTs = optionalString(args, 'thread_ts');
  const initialComment = optionalString(args, 'initial_comment');
  const uploads = requested.map(({ id, title }) => takeUpload(state, id ?? '', title));
  for (const upload of uploads) state.hostedFiles.set(upload.id, { id: upload.id, name: upload.filename, mimetype: 'text/plain', bytes: upload.bytes });
  for (const upload of uploads) {
    upload.channel = channel;
    upload.thread_ts = threadTs;
    upload.initial_comment = initialComment;
    state.uploads.push(upload);
  }
  const files = uploads.map((upload) => fileObject(state, upload));
  if (channel) shareInChannel(state, channel, threadTs, initialComment, files);
  return { files };
};

function takeUpload(state: SlackState, id: string, title: string | undefined): SlackUpload {
  const pending = state.pendingFiles.get(id);
  if (!pending?.bytes) throw new SlackApiError('file_not_found');
  state.pendingFiles.delete(id);
  const { bytes, ...rest } = pending;
  return { ...rest, title: title ?? pending.filename, bytes, text: bytes.toString('utf8') };
}

function fileObject(state: SlackState, upload: SlackUpload): Record<string, unknown> {
  const extension = upload.filename.includes('.') ? (upload.filename.split('.').pop() ?? 'text') : 'text';
  return {
    id: upload.id,
    created: Math.floor(Date.now() / 1000),
    timestamp: Math.floor(Date.now() / 1000),
    name: upload.filename,
    title: upload.title,
    mimetype: 'text/plain',
    filetype: extension,
    pretty_type: extension,
    user: state.identity.botUserId,
    size: upload.bytes.length,
    url_private: `${state.baseUrl}/files-pri/${state.identity.teamId}-${upload.id}/${upload.filename}`,
    permalink: `${state.baseUrl}/files/${state.identity.botUserId}/${upload.id}/${upload.filename}`,
    channels: upload.channel ? [upload.channel] : [],
  };
}

function shareInChannel(state: SlackState, channel: string, threadTs: string | undefined, comment: string | undefined, files: Record<string, unknown>[]): void {
  const { botUserId, botId, appId } = state.identity;
  state.messages.add(channel, {
    user: botUserId,
    bot_id: botId,
    app_id: appId,
    text: comment ?? '',
    files,
    upload: true,
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
}

export const fileMethods: Record<string, MethodHandler> = {
  'files.getUploadURLExternal': getUploadUrlExternal,
  'files.completeUploadExternal': completeUploadExternal,
};
