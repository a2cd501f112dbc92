import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateMirror } from '../../../src/workspace/mirror-cache.js';
import { repositoryView } from '../../../src/workspace/repository-view.js';
import { createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir } from './helpers/git-sandbox.js';

isolateGitConfig();

describe('repositoryView', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let dataDir: string;

  beforeAll(async () => {
    scratch = await makeScratchDir();
    const remote = createBareRemote(join(scratch.path, 'remotes'));
    remote.commit(
      { 'src/checkout/cartTotal.ts': 'export {};\n', 'src/checkout/shipping.ts': 'export {};\n', 'test/cart-total.test.ts': 'export {};\n' },
      'Add checkout',
    );
    dataDir = join(scratch.path, 'data');
    await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
  });
  afterAll(async () => {
    await scratch.remove();
  });

  it("shows the cached mirror's top level and the files whose names match the instruction's words", async () => {
    const view = await repositoryView({ dataDir, owner: 'acme', repo: 'web', text: 'the cart total is wrong for two items', timeoutMs: 2000 });
    expect(view).toBe(
      'Top level of acme/web (6 files): .gitignore README.md src/ test/\n' +
        'Files whose names match words of the instruction:\ntest/cart-total.test.ts\nsrc/checkout/cartTotal.ts',
    );
  });

  it('lists no files when no word matches, and gives no view without a cached mirror or in no time', async () => {
    expect(await repositoryView({ dataDir, owner: 'acme', repo: 'web', text: 'bump the version', timeoutMs: 2000 })).toBe(
      'Top level of acme/web (6 files): .gitignore README.md src/ test/',
    );
    expect(await repositoryView({ dataDir, owner: 'acme', repo: 'api', text: 'fix the cart', timeoutMs: 2000 })).toBeUndefined();
    expect(await repositoryView({ dataDir, owner: 'acme', repo: 'web', text: 'fix the cart', timeoutMs: 1 })).toBeUndefined();
  });
});
