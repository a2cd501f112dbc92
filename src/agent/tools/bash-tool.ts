import type Anthropic from '@anthropic-ai/sdk';
import { describeError, isWrenchError } from '../../errors.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { resolveWorkspacePath } from '../../sandbox/workspace-path.js';
import { stripAnsi } from '../../verification/strip-ansi.js';
import { CwdMarker } from './bash/cwd-marker.js';
import { formatBashResult } from './bash/format-bash-result.js';
import { toolError, toolOk, type ToolResult } from './tool-result.js';

export const BASH_TOOL_NAME = 'bash';
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const DEFAULT_BASH_OUTPUT_CHARS = 10_000;

/** Anthropic's schema-less bash tool, as sent in `tools`. */
export function bashToolDefinition(): Anthropic.Messages.ToolBash20250124 {
  return { type: 'bash_20250124', name: BASH_TOOL_NAME };
}

export interface BashToolOptions {
  sandbox: Sandbox;
  /** The workspace root: where the first command starts and where `restart` goes back to. */
  root: string;
  /** Each command is killed after this long. Default 120 s. */
  defaultTimeoutMs?: number;
  /** Aborting kills the running command. */
  signal?: AbortSignal;
  /** Whether commands may use the network (bwrap: any public host, through the egress proxy). Default false. */
  network?: boolean;
  /** Extra environment for every command (credentials are dropped by the sandbox anyway). */
  env?: Record<string, string>;
  /** Host directories every command may read (the runtimes provisioned for the repository's checks). */
  readOnlyDirs?: readonly string[];
  /** Output kept per command, head and tail. Default 10 000 characters. */
  maxOutputChars?: number;
}

export interface BashTool {
  readonly name: typeof BASH_TOOL_NAME;
  readonly definition: Anthropic.Messages.ToolBash20250124;
  /** The directory the next command starts in. */
  readonly cwd: string;
  /** Carry out one tool_use input (`command`, or `restart: true`); every problem is an error result, never a throw. */
  execute(input: unknown, context?: { signal?: AbortSignal }): Promise<ToolResult>;
}

/**
 * The bash tool on top of a sandbox. Every command runs in a fresh bash through `sandbox.exec`;
 * the working directory is carried from one command to the next as in a persistent session.
 */
export function createBashTool(options: BashToolOptions): BashTool {
  const timeoutMs = options.defaultTimeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
  const marker = new CwdMarker();
  let cwd = options.root;

  const run = async (command: string, signal: AbortSignal | undefined): Promise<ToolResult> => {
    const result = await options.sandbox.exec(marker.wrap(command), {
      cwd,
      timeoutMs,
      signal,
      env: options.env,
      readOnlyDirs: options.readOnlyDirs,
      network: options.network ?? false,
      egress: 'public',
      maxOutputChars: options.maxOutputChars ?? DEFAULT_BASH_OUTPUT_CHARS,
    });
    const stripped = marker.strip(stripAnsi(result.output));
    const note = stripped.cwd ? await follow(stripped.cwd) : undefined;
    const formatted = { ...formatBashResult(result, stripped.output, timeoutMs), exitCode: result.exitCode };
    return note ? { ...formatted, content: `${formatted.content}\n${note}` } : formatted;
  };

  const follow = async (reported: string): Promise<string | undefined> => {
    const resolved = await resolveWorkspacePath(options.root, reported);
    if (resolved.ok) {
      cwd = resolved.path;
      return undefined;
    }
    cwd = options.root;
    return `[${reported} is outside the workspace: the next command starts in ${options.root}]`;
  };

  return {
    name: BASH_TOOL_NAME,
    definition: bashToolDefinition(),
    get cwd() {
      return cwd;
    },
    async execute(input: unknown, context: { signal?: AbortSignal } = {}): Promise<ToolResult> {
      const params = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
      if (params.restart === true) {
        cwd = options.root;
        return toolOk('tool has been restarted.');
      }
      if (typeof params.command !== 'string' || params.command.trim() === '') return toolError('Error: no command provided.');
      const signals = [options.signal, context.signal].filter((signal): signal is AbortSignal => !!signal);
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      try {
        return await run(params.command, signal);
      } catch (error) {
        if (!isWrenchError(error) || error.code !== 'sandbox_cwd_missing' || cwd === options.root) return toolError(`Error: ${describeError(error)}`);
        const lost = cwd;
        cwd = options.root;
        const retried = await run(params.command, signal).catch((again: Error) => toolError(`Error: ${again.message}`));
        return { ...retried, content: `[${lost} no longer exists: ran in ${options.root}]\n${retried.content}` };
      }
    },
  };
}
