import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, makeRepo } from '../../helpers/git-repo.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { type CandidateTree, repositoriesHolding, treeReferences } from '../../../src/repository/pick-by-tree.js';

const WEB = { owner: 'acme', name: 'web' };
const API = { owner: 'acme', name: 'api' };

describe('the references an instruction could tell repositories apart by', () => {
  it('takes file and directory paths (without line numbers) and code-like names, not prose', () => {
    const refs = treeReferences('the button in src/components/Checkout.tsx:42 calls `retryPayment` and then renderCartTotal; see ./config/ too');
    expect(refs.paths).toEqual(expect.arrayContaining(['src/components/Checkout.tsx', 'config']));
    expect(refs.symbols).toEqual(expect.arrayContaining(['retryPayment', 'renderCartTotal']));
    expect(refs.symbols).not.toContain('button');
    expect(treeReferences('make the page faster please')).toEqual({ paths: [], symbols: [] });
  });

  it('leaves out paths that leave the tree or are globs', () => {
    expect(treeReferences('read /etc/passwd and ../secrets/key.txt and src/**/*.ts').paths).toEqual([]);
  });
});

describe('which repository holds what the instruction names', () => {
  let dir: TempDir;
  let trees: CandidateTree[];

  beforeAll(async () => {
    dir = await makeTempDir('pick-by-tree-');
    const web = makeRepo(path.join(dir.path, 'web'), {
      'src/components/Checkout.tsx': 'export function Checkout() { return renderCartTotal(); }\n',
      'src/shared/format.ts': 'export const formatMoney = (n: number) => `$${n}`;\n',
    });
    const api = makeRepo(path.join(dir.path, 'api'), {
      'src/billing/retry.ts': 'export function retryPayment(times: number) { return times; }\n',
      'src/shared/format.ts': 'export const formatMoney = (n: number) => `${n} USD`;\n',
    });
    // A later commit on a branch that is not the base: what it adds is not what the base branch's head holds.
    git(web, 'checkout', '-q', '-b', 'feature');
    mkdirSync(path.join(web, 'src/billing'), { recursive: true });
    writeFileSync(path.join(web, 'src/billing/only-on-feature.ts'), 'export const onlyOnFeature = 1;\n');
    git(web, 'add', '-A');
    git(web, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'feature');
    git(web, 'checkout', '-q', 'main');
    trees = [
      { repo: WEB, gitDir: web, rev: 'refs/heads/main' },
      { repo: API, gitDir: api, rev: 'refs/heads/main' },
    ];
  });
  afterAll(async () => {
    await dir.remove();
  });

  it('a path only one has picks that one: a full path, a partial one or a bare file name', async () => {
    expect(await repositoriesHolding(treeReferences('fix the total in src/components/Checkout.tsx'), trees, 10_000)).toEqual([WEB]);
    expect(await repositoriesHolding(treeReferences('retry.ts retries forever'), trees, 10_000)).toEqual([API]);
    expect(await repositoriesHolding(treeReferences('add a test under src/billing'), trees, 10_000)).toEqual([API]);
  });

  it('a symbol only one has picks that one, found as a whole word in its files', async () => {
    expect(await repositoriesHolding(treeReferences('why does retryPayment give up?'), trees, 10_000)).toEqual([API]);
    expect(await repositoriesHolding(treeReferences('renderCartTotal shows NaN'), trees, 10_000)).toEqual([WEB]);
    // "retryPay" is only part of a word in api: no match.
    expect(await repositoriesHolding(treeReferences('rename `retryPay`'), trees, 10_000)).toEqual([]);
  });

  it('what both have, or neither, tells nothing; one reference each names both', async () => {
    expect(await repositoriesHolding(treeReferences('formatMoney in src/shared/format.ts rounds wrong'), trees, 10_000)).toEqual([]);
    expect(await repositoriesHolding(treeReferences('add src/new/thing.ts with fooBarBaz'), trees, 10_000)).toEqual([]);
    expect(await repositoriesHolding(treeReferences('retryPayment should call renderCartTotal'), trees, 10_000)).toEqual([WEB, API]);
  });

  it('reads the base branch head, not other branches', async () => {
    expect(await repositoriesHolding(treeReferences('onlyOnFeature is wrong in src/billing/only-on-feature.ts'), trees, 10_000)).toEqual([]);
  });

  it('a tree git cannot read holds nothing', async () => {
    const broken = [trees[0]!, { repo: API, gitDir: path.join(dir.path, 'missing'), rev: 'HEAD' }];
    expect(await repositoriesHolding(treeReferences('retryPayment in src/billing/retry.ts'), broken, 10_000)).toEqual([]);
    expect(await repositoriesHolding(treeReferences('renderCartTotal'), broken, 10_000)).toEqual([WEB]);
  });
});
