import { chmod, lstat, mkdir, readdir, readFile, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTextEditor, textEditorToolDefinition, type TextEditor } from '../../../src/agent/tools/text-editor-tool.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('text editor tool', () => {
  let dir: TempDir;
  let root: string;
  let editor: TextEditor;
  const file = (name: string) => path.join(root, name);
  const write = async (name: string, text: string | Buffer) => {
    await mkdir(path.dirname(file(name)), { recursive: true });
    await writeFile(file(name), text);
  };
  const read = (name: string) => readFile(file(name), 'utf8');

  beforeEach(async () => {
    dir = await makeTempDir('wrench-editor-');
    root = await realpath(dir.path);
    editor = createTextEditor({ root });
  });
  afterEach(() => dir.remove());

  it('is defined as text_editor_20250728 named str_replace_based_edit_tool', () => {
    expect(textEditorToolDefinition()).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' });
    expect(textEditorToolDefinition({ maxCharacters: 10_000 })).toEqual({
      type: 'text_editor_20250728',
      name: 'str_replace_based_edit_tool',
      max_characters: 10_000,
    });
    expect(createTextEditor({ root: '/x', maxCharacters: 500 }).definition).toMatchObject({ max_characters: 500 });
  });

  describe('view', () => {
    it('shows a file with its line numbers in the documented format', async () => {
      await write('primes.py', 'def is_prime(n):\n    """Check."""\n\n    return True\n');
      expect(await editor.execute({ command: 'view', path: 'primes.py' })).toEqual({
        content: '1: def is_prime(n):\n2:     """Check."""\n3: \n4:     return True',
        isError: false,
      });
    });

    it('shows a range of lines, -1 meaning to the end', async () => {
      await write('a.txt', 'one\ntwo\nthree\nfour\nfive');
      expect((await editor.execute({ command: 'view', path: 'a.txt', view_range: [2, 3] })).content).toBe('2: two\n3: three');
      expect((await editor.execute({ command: 'view', path: 'a.txt', view_range: [4, -1] })).content).toBe('4: four\n5: five');
      expect((await editor.execute({ command: 'view', path: 'a.txt', view_range: [5, 99] })).content).toBe('5: five');
    });

    it('explains an invalid range', async () => {
      await write('a.txt', 'one\ntwo\n');
      for (const view_range of [[0, 1], [2, 1], [3, -1], [1], 'all', [1.5, 2]]) {
        const result = await editor.execute({ command: 'view', path: 'a.txt', view_range });
        expect(result.isError, JSON.stringify(view_range)).toBe(true);
        expect(result.content).toMatch(/^Error: Invalid `view_range`/);
      }
    });

    it('lists a directory two levels deep without hidden items and node_modules', async () => {
      await write('src/index.ts', '');
      await write('src/lib/util.ts', '');
      await write('src/lib/deep/too-deep.ts', '');
      await write('.env', 'SECRET=1');
      await write('.git/config', '');
      await write('node_modules/x/index.js', '');
      await write('README.md', '');
      const result = await editor.execute({ command: 'view', path: '.' });
      expect(result).toEqual({
        content:
          "Here's the files and directories up to 2 levels deep in ., excluding hidden items and node_modules:\nREADME.md\nsrc/\nsrc/index.ts\nsrc/lib/\n",
        isError: false,
      });
      const nested = await editor.execute({ command: 'view', path: 'src/' });
      expect(nested.content.split('\n').slice(1)).toEqual(['src/index.ts', 'src/lib/', 'src/lib/deep/', 'src/lib/util.ts', '']);
    });

    it('truncates to max_characters', async () => {
      await write('long.txt', 'x'.repeat(100) + '\n' + 'y'.repeat(100) + '\n');
      const result = await createTextEditor({ root, maxCharacters: 50 }).execute({ command: 'view', path: 'long.txt' });
      expect(result.content.startsWith(`1: ${'x'.repeat(47)}\n\n[Output truncated to 50 characters.`)).toBe(true);
      expect(result.content).toContain('view_range');
      expect(result.isError).toBe(false);
    });

    it('answers File not found for a missing path', async () => {
      expect(await editor.execute({ command: 'view', path: 'missing.ts' })).toEqual({ content: 'Error: File not found', isError: true });
    });

    it('refuses binary files and asks for a range on large ones', async () => {
      await write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
      const binary = await editor.execute({ command: 'view', path: 'image.png' });
      expect(binary.isError).toBe(true);
      expect(binary.content).toContain('binary file');

      await write('big.log', 'line\n'.repeat(1000));
      const small = createTextEditor({ root, maxViewBytes: 1000 });
      const big = await small.execute({ command: 'view', path: 'big.log' });
      expect(big.isError).toBe(true);
      expect(big.content).toContain('view_range');
      expect((await small.execute({ command: 'view', path: 'big.log', view_range: [999, -1] })).content).toBe('999: line\n1000: line');
      const tooBig = await createTextEditor({ root, maxFileBytes: 1000 }).execute({ command: 'view', path: 'big.log', view_range: [1, 2] });
      expect(tooBig.content).toContain('too large');
    });
  });

  describe('str_replace', () => {
    it('replaces text found exactly once', async () => {
      await write('primes.py', 'for num in range(2, limit + 1)\n    pass\n');
      const result = await editor.execute({
        command: 'str_replace',
        path: 'primes.py',
        old_str: 'for num in range(2, limit + 1)',
        new_str: 'for num in range(2, limit + 1):',
      });
      expect(result).toEqual({ content: 'Successfully replaced text at exactly one location.', isError: false });
      expect(await read('primes.py')).toBe('for num in range(2, limit + 1):\n    pass\n');
    });

    it('answers the documented error when nothing matches', async () => {
      await write('a.txt', 'hello\n');
      expect(await editor.execute({ command: 'str_replace', path: 'a.txt', old_str: 'Hello', new_str: 'x' })).toEqual({
        content: 'Error: No match found for replacement. Please check your text and try again.',
        isError: true,
      });
      expect(await read('a.txt')).toBe('hello\n');
    });

    it('answers the documented error with the lines when several places match', async () => {
      await write('a.txt', 'x = 1\ny = 2\nx = 1\n\nx = 1\n');
      expect(await editor.execute({ command: 'str_replace', path: 'a.txt', old_str: 'x = 1', new_str: 'x = 3' })).toEqual({
        content: 'Error: Found 3 matches for replacement text. Please provide more context to make a unique match. The matches start on lines 1, 3, 5.',
        isError: true,
      });
      expect(await read('a.txt')).toBe('x = 1\ny = 2\nx = 1\n\nx = 1\n');
    });

    it('deletes the text when new_str is absent', async () => {
      await write('a.txt', 'keep\nremove me\nkeep\n');
      expect((await editor.execute({ command: 'str_replace', path: 'a.txt', old_str: 'remove me\n' })).isError).toBe(false);
      expect(await read('a.txt')).toBe('keep\nkeep\n');
    });

    it('needs old_str and an existing file', async () => {
      await write('a.txt', 'x');
      expect((await editor.execute({ command: 'str_replace', path: 'a.txt', new_str: 'y' })).content).toBe(
        'Error: Parameter `old_str` is required for command: str_replace',
      );
      expect((await editor.execute({ command: 'str_replace', path: 'nope.txt', old_str: 'a', new_str: 'b' })).content).toBe('Error: File not found');
    });

    it('writes atomically, keeping the mode and leaving no temporary file', async () => {
      await write('run.sh', '#!/bin/sh\necho old\n');
      await chmod(file('run.sh'), 0o750);
      const inode = (await stat(file('run.sh'))).ino;
      await editor.execute({ command: 'str_replace', path: 'run.sh', old_str: 'old', new_str: 'new' });
      const after = await stat(file('run.sh'));
      expect(after.ino).not.toBe(inode);
      expect(after.mode & 0o777).toBe(0o750);
      expect(await read('run.sh')).toBe('#!/bin/sh\necho new\n');
      expect(await readdir(root)).toEqual(['run.sh']);
    });

    it('edits the target of a symlink inside the workspace and keeps the link', async () => {
      await write('real.txt', 'a\n');
      await symlink('real.txt', file('link.txt'));
      await editor.execute({ command: 'str_replace', path: 'link.txt', old_str: 'a', new_str: 'b' });
      expect(await read('real.txt')).toBe('b\n');
      expect((await lstat(file('link.txt'))).isSymbolicLink()).toBe(true);
    });
  });

  describe('create', () => {
    it('creates a file and its parent directories', async () => {
      const result = await editor.execute({ command: 'create', path: 'test/deep/test_primes.py', file_text: 'import unittest\n' });
      expect(result).toEqual({ content: 'File created successfully at: test/deep/test_primes.py', isError: false });
      expect(await read('test/deep/test_primes.py')).toBe('import unittest\n');
    });

    it('overwrites an existing file keeping its mode', async () => {
      await write('tool.sh', 'old');
      await chmod(file('tool.sh'), 0o755);
      const result = await editor.execute({ command: 'create', path: path.join(root, 'tool.sh'), file_text: 'new' });
      expect(result.isError).toBe(false);
      expect(await read('tool.sh')).toBe('new');
      expect((await stat(file('tool.sh'))).mode & 0o777).toBe(0o755);
    });

    it('needs file_text and refuses a directory', async () => {
      expect((await editor.execute({ command: 'create', path: 'x.txt' })).content).toBe('Error: Parameter `file_text` is required for command: create');
      await mkdir(file('adir'));
      expect((await editor.execute({ command: 'create', path: 'adir', file_text: '' })).isError).toBe(true);
    });
  });

  describe('insert', () => {
    it('inserts after a line, with insert_text as documented', async () => {
      await write('a.txt', 'one\ntwo\nthree\n');
      const result = await editor.execute({ command: 'insert', path: 'a.txt', insert_line: 2, insert_text: 'inserted' });
      expect(result.isError).toBe(false);
      expect(await read('a.txt')).toBe('one\ntwo\ninserted\nthree\n');
    });

    it('inserts at the beginning with line 0, and accepts new_str too', async () => {
      await write('primes.py', 'def f():\n    pass\n');
      await editor.execute({ command: 'insert', path: 'primes.py', insert_line: 0, new_str: '"""Module docstring."""\n' });
      expect(await read('primes.py')).toBe('"""Module docstring."""\ndef f():\n    pass\n');
    });

    it('appends at the end, also to a file without a final newline', async () => {
      await write('a.txt', 'one\ntwo');
      await editor.execute({ command: 'insert', path: 'a.txt', insert_line: 2, insert_text: 'three' });
      expect(await read('a.txt')).toBe('one\ntwo\nthree');
      await write('b.txt', 'one\n');
      await editor.execute({ command: 'insert', path: 'b.txt', insert_line: 1, insert_text: 'two\nthree' });
      expect(await read('b.txt')).toBe('one\ntwo\nthree\n');
    });

    it('explains a line out of range or missing parameters', async () => {
      await write('a.txt', 'one\ntwo\n');
      expect((await editor.execute({ command: 'insert', path: 'a.txt', insert_line: 3, insert_text: 'x' })).content).toBe(
        'Error: Invalid `insert_line` parameter: 3. It should be within the range of lines of the file: [0, 2].',
      );
      expect((await editor.execute({ command: 'insert', path: 'a.txt', insert_text: 'x' })).content).toBe(
        'Error: Parameter `insert_line` is required for command: insert',
      );
      expect((await editor.execute({ command: 'insert', path: 'a.txt', insert_line: 1 })).content).toBe(
        'Error: Parameter `insert_text` is required for command: insert',
      );
    });
  });

  describe('paths and commands', () => {
    it('refuses paths outside the workspace without throwing', async () => {
      const outside = await makeTempDir('wrench-editor-outside-');
      try {
        await writeFile(path.join(outside.path, 'secret.txt'), 'secret');
        await symlink(outside.path, file('escape'));
        await symlink(path.join(outside.path, 'secret.txt'), file('secret-link'));
        const attempts = [
          { command: 'view', path: '../secret.txt' },
          { command: 'view', path: '/etc/passwd' },
          { command: 'view', path: path.join(outside.path, 'secret.txt') },
          { command: 'view', path: 'escape/secret.txt' },
          { command: 'view', path: 'secret-link' },
          { command: 'str_replace', path: 'secret-link', old_str: 'secret', new_str: 'pwned' },
          { command: 'create', path: 'escape/new.txt', file_text: 'pwned' },
          { command: 'create', path: 'sub/../../escaped.txt', file_text: 'pwned' },
          { command: 'insert', path: 'escape/secret.txt', insert_line: 0, insert_text: 'pwned' },
        ];
        for (const input of attempts) {
          const result = await editor.execute(input);
          expect(result.isError, JSON.stringify(input)).toBe(true);
          expect(result.content).toMatch(/^Error: .*outside the workspace/);
        }
        expect(await readFile(path.join(outside.path, 'secret.txt'), 'utf8')).toBe('secret');
        expect(await readdir(outside.path)).toEqual(['secret.txt']);
      } finally {
        await outside.remove();
      }
    });

    it('accepts absolute paths inside the workspace', async () => {
      await write('a.txt', 'x\n');
      expect((await editor.execute({ command: 'view', path: file('a.txt') })).content).toBe('1: x');
    });

    it('has no undo_edit and says which commands exist', async () => {
      expect(await editor.execute({ command: 'undo_edit', path: 'a.txt' })).toEqual({
        content: 'Error: Unrecognized command undo_edit. The allowed commands for the str_replace_based_edit_tool tool are: view, create, str_replace, insert',
        isError: true,
      });
      expect((await editor.execute({})).isError).toBe(true);
      expect((await editor.execute(null)).isError).toBe(true);
      expect((await editor.execute({ command: 'view' })).content).toBe('Error: Parameter `path` is required for command: view');
    });

    it('only views in read-only mode', async () => {
      await write('a.txt', 'x\n');
      const readOnly = createTextEditor({ root, readOnly: true });
      expect((await readOnly.execute({ command: 'view', path: 'a.txt' })).isError).toBe(false);
      const edit = await readOnly.execute({ command: 'create', path: 'b.txt', file_text: 'y' });
      expect(edit.isError).toBe(true);
      expect(edit.content).toContain('read-only');
    });
  });
});
