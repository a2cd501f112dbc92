import { mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/agent/tools/bash-tool.js';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

for (const mode of ['none', 'bwrap'] as const) {
  describe(`bash tool on the ${mode} sandbox`, () => {
    let dir: TempDir;
    let root: string;
    beforeAll(async () => {
      dir = await makeTempDir('wrench-bash-tool-');
      root = await realpath(dir.path);
      await mkdir(path.join(root, 'src', 'lib'), { recursive: true });
    });
    afterAll(() => dir.remove());
    const tool = () => createBashTool({ sandbox: createSandbox({ mode, root }), root });

    it('keeps the working directory from one command to the next, and restart goes back to the root', async () => {
      const bash = tool();
      expect(await bash.execute({ command: 'cd src && pwd' })).toMatchObject({ content: path.join(root, 'src'), isError: false });
      expect(await bash.execute({ command: 'cd lib; pwd' })).toMatchObject({ content: path.join(root, 'src', 'lib'), isError: false });
      expect((await bash.execute({ command: 'pwd' })).content).toBe(path.join(root, 'src', 'lib'));
      expect(await bash.execute({ restart: true })).toMatchObject({ content: 'tool has been restarted.', isError: false });
      expect((await bash.execute({ command: 'pwd' })).content).toBe(root);
    });

    it('keeps the exit status of the command and the output without the marker', async () => {
      const bash = tool();
      expect(await bash.execute({ command: 'cd src; printf partial; exit 3' })).toMatchObject({
        content: 'partial\n[exit code 3]',
        isError: true,
        exitCode: 3,
      });
      expect(bash.cwd).toBe(path.join(root, 'src'));
      expect(await bash.execute({ command: 'nonexistentcommand' })).toMatchObject({
        content: 'bash: line 1: nonexistentcommand: command not found\n[exit code 127]',
        isError: true,
      });
      expect(await bash.execute({ command: 'echo a; echo b >&2; false' })).toMatchObject({ content: 'a\nb\n[exit code 1]', isError: true });
    });

    it('does not follow a cd out of the workspace', async () => {
      const bash = tool();
      const result = await bash.execute({ command: 'cd / && ls >/dev/null && echo moved' });
      expect(result.content).toBe(`moved\n[/ is outside the workspace: the next command starts in ${root}]`);
      expect((await bash.execute({ command: 'pwd' })).content).toBe(root);
    });

    it('starts from the root again when the directory it was in is gone', async () => {
      const bash = tool();
      await mkdir(path.join(root, 'gone'));
      await bash.execute({ command: 'cd gone' });
      await rm(path.join(root, 'gone'), { recursive: true });
      const result = await bash.execute({ command: 'pwd' });
      expect(result.content).toBe(`[${path.join(root, 'gone')} no longer exists: ran in ${root}]\n${root}`);
    });

    it('reports a timeout in the text the model sees', async () => {
      const bash = createBashTool({ sandbox: createSandbox({ mode, root }), root, defaultTimeoutMs: 500 });
      expect(await bash.execute({ command: 'echo started; sleep 30' })).toMatchObject({
        content: 'started\nError: Command timed out after 0.5 seconds and was killed.',
        isError: true,
      });
    });

    it('cuts long output to head and tail with the elided count', async () => {
      const result = await tool().execute({ command: 'seq 1 100000' });
      expect(result.content.startsWith('1\n2\n3\n')).toBe(true);
      expect(result.content.endsWith('99999\n100000')).toBe(true);
      expect(result.content).toMatch(/\[\.\.\. \d+ characters elided \.\.\.\]/);
      expect(result.content.length).toBeLessThan(10_200);
    });
  });
}
