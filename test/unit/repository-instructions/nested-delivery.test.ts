import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { clearOldToolResults } from '../../../src/agent/context-window.js';
import { commandPaths, editorPath } from '../../../src/agent/touched-paths.js';
import { nestedInstructionsText } from '../../../src/repository-instructions/instruction-context.js';

describe('which directories a tool call reaches', () => {
  it("reads a command's path-like words against the directory it starts in, and the directory itself; nothing outside the root", () => {
    expect(commandPaths('cat packages/api/src/x.ts && ls ../web', '/w/repo/packages', '/w/repo').sort()).toEqual([
      'packages',
      'packages/packages/api/src/x.ts',
      'web',
    ]);
    expect(commandPaths("grep -rn 'retry' ./services/pay --include=*.ts https://x.example/a.b $HOME/.env", '/w/repo', '/w/repo').sort()).toEqual([
      '',
      'services/pay',
    ]);
    expect(commandPaths('cat /etc/passwd ../../x.md', '/w/repo', '/w/repo')).toEqual(['']);
    expect(editorPath({ command: 'view', path: 'packages/api/src/x.ts' }, '/w/repo')).toBe('packages/api/src/x.ts');
    expect(editorPath({ command: 'view', path: '/w/repo/packages/api' }, '/w/repo')).toBe('packages/api');
    expect(editorPath({ command: 'view', path: '/etc/passwd' }, '/w/repo')).toBeUndefined();
  });
});

describe('clearing old tool results keeps the instructions they carried', () => {
  it('clears the output but keeps the nested AGENTS.md given with it, since it is not given again', () => {
    const nested = nestedInstructionsText([
      { path: 'packages/api/AGENTS.md', scope: 'packages/api/', text: 'Handlers return Result.\n', chars: 24, truncated: false, omitted: false },
    ]);
    const output = `${'line of output\n'.repeat(200)}${nested}`;
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: 'task' }];
    for (let i = 0; i < 4; i++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: { command: 'cat x' } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: i === 0 ? output : 'short' }] });
    }
    expect(clearOldToolResults(messages, { triggerTokens: 0, keepRecentToolTurns: 2, keepShorterThanChars: 100 })).toBe(1);
    const cleared = ((messages[2]?.content ?? []) as Anthropic.Messages.ToolResultBlockParam[])[0]?.content as string;
    expect(cleared).toMatch(
      /^\[cleared to save context: 3000 characters of earlier output; run the command again if you need it\]\n\n\[Repository instructions: /,
    );
    expect(cleared).toContain('Handlers return Result.');
    expect(cleared).not.toContain('line of output');
  });
});
