import type Anthropic from '@anthropic-ai/sdk';
import { resolveWorkspacePath } from '../../sandbox/workspace-path.js';
import { createFile } from './text-editor/create-file.js';
import { missingParameter, unknownCommand } from './text-editor/editor-messages.js';
import { insertText } from './text-editor/insert-text.js';
import { strReplace } from './text-editor/str-replace.js';
import { view } from './text-editor/view.js';
import { toolError, type ToolResult } from './tool-result.js';

export const TEXT_EDITOR_TOOL_NAME = 'str_replace_based_edit_tool';

export const DEFAULT_MAX_VIEW_BYTES = 512 * 1024;
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Anthropic's schema-less text editor tool for Claude 4 models, as sent in `tools`. */
export function textEditorToolDefinition(options: { maxCharacters?: number } = {}): Anthropic.Messages.ToolTextEditor20250728 {
  return {
    type: 'text_editor_20250728',
    name: TEXT_EDITOR_TOOL_NAME,
    ...(options.maxCharacters ? { max_characters: options.maxCharacters } : {}),
  };
}

export interface TextEditorOptions {
  /** The workspace: every path must resolve inside it. */
  root: string;
  /** Truncate views to this many characters (also sent as the definition's `max_characters`). */
  maxCharacters?: number;
  /** Only `view` is allowed. */
  readOnly?: boolean;
  /** Files larger than this are viewed only with a view_range. Default 512 KiB. */
  maxViewBytes?: number;
  /** Files larger than this are refused. Default 16 MiB. */
  maxFileBytes?: number;
}

export interface TextEditor {
  readonly name: typeof TEXT_EDITOR_TOOL_NAME;
  readonly definition: Anthropic.Messages.ToolTextEditor20250728;
  /** Carry out one tool_use input; every problem is an error result, never a throw. */
  execute(input: unknown): Promise<ToolResult>;
}

/** The text editor tool (`view`, `str_replace`, `create`, `insert`) working on files of one workspace. */
export function createTextEditor(options: TextEditorOptions): TextEditor {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxViewBytes = options.maxViewBytes ?? DEFAULT_MAX_VIEW_BYTES;
  return {
    name: TEXT_EDITOR_TOOL_NAME,
    definition: textEditorToolDefinition({ maxCharacters: options.maxCharacters }),
    async execute(input: unknown): Promise<ToolResult> {
      const params = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
      const command = params.command;
      if (typeof command !== 'string' || !['view', 'create', 'str_replace', 'insert'].includes(command))
        return toolError(unknownCommand(command, TEXT_EDITOR_TOOL_NAME));
      if (typeof params.path !== 'string' || params.path.trim() === '') return toolError(missingParameter('path', command));
      if (options.readOnly && command !== 'view') return toolError('Error: This task is read-only: the text editor may only view files and directories.');

      const display = params.path;
      try {
        const resolved = await resolveWorkspacePath(options.root, display);
        if (!resolved.ok) return toolError(`Error: ${resolved.reason}. Only paths inside the workspace can be used.`);
        const file = resolved.path;
        switch (command) {
          case 'view':
            return await view(file, display, params.view_range, { maxCharacters: options.maxCharacters, maxViewBytes, maxFileBytes });
          case 'str_replace':
            return await strReplace(file, display, params.old_str, params.new_str, maxFileBytes);
          case 'create':
            return await createFile(file, display, params.file_text);
          default:
            return await insertText(file, display, params.insert_line, params.insert_text ?? params.new_str, maxFileBytes);
        }
      } catch (error) {
        return toolError(`Error: ${(error as Error)?.message ?? String(error)}`);
      }
    },
  };
}
