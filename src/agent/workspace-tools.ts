import type { Sandbox } from '../sandbox/sandbox.js';
import type { AgentTool } from './agent-tool.js';
import { commandPaths, editorPath } from './touched-paths.js';
import { createBashTool } from './tools/bash-tool.js';
import { createTextEditor } from './tools/text-editor-tool.js';

export interface WorkspaceToolOptions {
  sandbox: Sandbox;
  root: string;
  /** Review and triage runs: the editor only views. */
  readOnly: boolean;
  network: boolean;
  signal?: AbortSignal;
  commandTimeoutMs?: number;
  /** The environment of the repository's checks (its runtimes first on PATH), so the agent runs them the same way. */
  environment?: { env?: Record<string, string>; readOnlyDirs?: readonly string[] };
  /**
   * Told the workspace paths (relative to the root) each call named, after it ran; what it returns is appended to the
   * call's result (the repository's instructions for a directory the agent reached for the first time).
   */
  afterCall?: (paths: readonly string[]) => Promise<string>;
}

/** Anthropic's bash and text-editor client tools, bound to one job's workspace and sandbox. */
export function workspaceTools(options: WorkspaceToolOptions): AgentTool[] {
  const bash = createBashTool({
    sandbox: options.sandbox,
    root: options.root,
    network: options.network,
    signal: options.signal,
    defaultTimeoutMs: options.commandTimeoutMs,
    env: options.environment?.env,
    readOnlyDirs: options.environment?.readOnlyDirs,
  });
  const editor = createTextEditor({ root: options.root, readOnly: options.readOnly });
  return [
    {
      name: bash.name,
      definition: bash.definition,
      describe: (input) => ({ key: 'running', command: oneLine(String((input as { command?: string })?.command ?? 'restart')) }),
      execute: async (input, context) => {
        const command = (input as { command?: unknown } | undefined)?.command;
        const before = bash.cwd;
        const result = await bash.execute(input, context);
        if (!options.afterCall || typeof command !== 'string') return result;
        const paths = [...commandPaths(command, before, options.root), ...commandPaths('', bash.cwd, options.root)];
        return { ...result, content: result.content + (await options.afterCall(paths)) };
      },
    },
    {
      name: editor.name,
      definition: editor.definition,
      describe: (input) => {
        const { command, path } = (input ?? {}) as { command?: string; path?: string };
        return path ? { key: command === 'view' ? 'reading' : 'editing', path } : { key: 'tool', name: editor.name };
      },
      execute: async (input) => {
        const result = await editor.execute(input);
        const touched = editorPath(input, options.root);
        if (!options.afterCall || touched === undefined) return result;
        return { ...result, content: result.content + (await options.afterCall([touched])) };
      },
    },
  ];
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
