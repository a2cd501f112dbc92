import { describe, expect, it } from 'vitest';
import { failureMessage } from '../../../runners/failure-message.js';
import { wrenchErrorSaying } from '../../../src/errors.js';
import { blockedPushError, type OutgoingSecret } from '../../../src/workspace/outgoing-commits.js';
import { GitError } from '../../../src/workspace/run-git.js';
import { switchBranch } from '../../../src/workspace/switch-branch.js';

const found: OutgoingSecret[] = [
  { where: { file: 'config/dev.env', commit: 'a'.repeat(40) }, line: 3, kind: { own: 'GITHUB_TOKEN' } },
  { where: { file: 'config/dev.env', commit: 'a'.repeat(40) }, line: 4, kind: { rule: 'aws' } },
  { where: { message: '0123456789abcdef0123456789abcdef01234567' }, line: 1, kind: { rule: 'github' } },
];
const held = { id: 'wrench-fix-0123456789ab', ref: 'refs/heads/wrench/fix', days: 14, host: 'worker-2' };
const fetch = '`git fetch "$WRENCH_DATA_DIR/held/wrench-fix-0123456789ab.bundle" refs/heads/wrench/fix`';

/** A switch whose remote holds `main` (and `refs`), failing any git command it would run. */
const switchOn = (options: { baseBranch?: string; branch: string; existingBranch?: boolean }, refs: string[] = []) =>
  switchBranch(
    async (...args) => {
      throw new Error(`git ${args.join(' ')} was not expected`);
    },
    { dir: '/nowhere', label: 'acme/web', ...options, remoteRefs: new Map(['main', ...refs].map((name) => [`refs/remotes/origin/${name}`, 'f'.repeat(40)])) },
  );

describe("a typed error in the thread's language", () => {
  it('a push refused for a secret: the places, the worker, the bundle, its days and how to fetch it, in German and French', () => {
    const error = blockedPushError(found, 'wrench/fix', held);
    // The run record and the log keep the English.
    expect(error.message).toBe(
      "I did not push `wrench/fix`: `config/dev.env` line 3 holds Wrench's own GITHUB_TOKEN; `config/dev.env` line 4 holds what looks like an AWS credential; the message of commit 0123456789ab (line 1) holds what looks like a GitHub token. Nothing of this run left this machine; remove it (and reword that commit) and mention me to retry. The commits are kept on Wrench worker `worker-2` as held bundle `wrench-fix-0123456789ab` for 14 days (readable by Wrench's user only; `wrench doctor` on that worker lists them); an operator gets them in a clone of the repository with " +
        `${fetch}.`,
    );
    expect(failureMessage(error)).toBe(`The run failed: ${error.message}`);
    expect(failureMessage(error, 'de')).toBe(
      'Der Lauf ist fehlgeschlagen: Ich habe `wrench/fix` nicht gepusht: `config/dev.env` Zeile 3 enthält den Wert von Wrenchs GITHUB_TOKEN; `config/dev.env` Zeile 4 enthält etwas, das wie AWS-Zugangsdaten aussieht; die Nachricht von Commit 0123456789ab (Zeile 1) enthält etwas, das wie ein GitHub-Token aussieht. Nichts aus diesem Lauf hat diese Maschine verlassen; entferne die Zugangsdaten (und formuliere die Nachricht dieses Commits neu) und erwähne mich, um es erneut zu versuchen. Die Commits liegen auf dem Wrench-Worker `worker-2` als zurückgehaltenes Bundle `wrench-fix-0123456789ab`, 14 Tage lang (nur für Wrenchs Benutzer lesbar; `wrench doctor` auf diesem Worker listet sie auf); ein Operator holt sie in einem Klon des Repositorys mit ' +
        `${fetch}.`,
    );
    expect(failureMessage(error, 'fr')).toBe(
      'L’exécution a échoué : Je n’ai pas poussé `wrench/fix` : `config/dev.env` ligne 3 contient le GITHUB_TOKEN de Wrench lui-même ; `config/dev.env` ligne 4 contient ce qui ressemble à un identifiant AWS ; le message du commit 0123456789ab (ligne 1) contient ce qui ressemble à un jeton GitHub. Rien de cette exécution n’a quitté cette machine ; supprimez le secret (et reformulez le message de ce commit) et mentionnez-moi pour réessayer. Les commits sont conservés sur le worker Wrench `worker-2` sous forme de bundle retenu `wrench-fix-0123456789ab` pendant 14 jours (lisible par l’utilisateur de Wrench uniquement ; `wrench doctor` sur ce worker les liste) ; un opérateur les récupère dans un clone du dépôt avec ' +
        `${fetch}.`,
    );
  });

  it('a refused push names every place, the commit message last among them, in every language; no bundle, a machine without a host id', () => {
    const many: OutgoingSecret[] = [
      ...Array.from({ length: 7 }, (_, i) => ({ where: { file: `f${i}.env`, commit: 'a'.repeat(40) }, line: i + 1, kind: { rule: 'npm' } })),
      { where: { message: 'fedcba9876543210fedcba9876543210fedcba98' }, line: 2, kind: { rule: 'github' } },
    ];
    const noBundle = blockedPushError(many, 'wrench/x');
    for (let i = 0; i < 7; i++) expect(noBundle.message).toContain(`\`f${i}.env\` line ${i + 1} holds what looks like an npm token`);
    expect(noBundle.message).toMatch(
      /`f6\.env` line 7 holds what looks like an npm token; the message of commit fedcba987654 \(line 2\) holds what looks like a GitHub token\. Nothing .* remove it \(and reword that commit\) and mention me to retry\.$/,
    );
    expect(noBundle.message).not.toMatch(/more place/);
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const text = failureMessage(noBundle, language);
      for (let i = 0; i < 7; i++) expect(text, `${language}: f${i}.env`).toContain(`\`f${i}.env\``);
      expect(text, language).toContain('fedcba987654');
      expect(text, language).not.toMatch(/weitere Stelle|lugares? más|autres? endroit|ほか \d+ か所|另有 \d+ 处|mais \d+ lugar/);
    }
    expect(failureMessage(noBundle, 'de')).toMatch(/`f6\.env` Zeile 7 enthält etwas, das wie ein npm-Token aussieht; die Nachricht von Commit fedcba987654/);
    const onMachine = blockedPushError(found.slice(0, 1), 'wrench/x', { id: 'b1', ref: 'HEAD' });
    expect(onMachine.message).toContain(' The commits are kept on the Wrench machine as held bundle `b1` (readable');
    expect(failureMessage(onMachine, 'de')).toContain('Die Commits liegen auf der Wrench-Maschine als zurückgehaltenes Bundle `b1` (nur');
    expect(failureMessage(onMachine, 'ja')).toContain('コミットは Wrench のマシンに保留バンドル `b1` として保管されています');
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const text = failureMessage(blockedPushError(found, 'wrench/fix', held), language);
      for (const fact of ['`wrench/fix`', '`config/dev.env`', '0123456789ab', '`worker-2`', '`wrench-fix-0123456789ab`', '14', '`wrench doctor`', fetch]) {
        expect(text, `${language}: ${fact}`).toContain(fact);
      }
      expect(text, language).not.toMatch(/did not push|held bundle|holds|looks like/);
    }
  });

  it('a missing base branch, a deleted branch and one that exists already, in German and French', async () => {
    const base = await switchOn({ baseBranch: 'develop', branch: 'wrench/x' }).catch((error: unknown) => error);
    expect((base as Error).message).toBe('acme/web has no branch "develop"; name an existing base branch.');
    expect(failureMessage(base, 'de')).toBe('Der Lauf ist fehlgeschlagen: acme/web hat keinen Branch "develop"; nenne einen vorhandenen Basis-Branch.');
    const gone = await switchOn({ baseBranch: 'main', branch: 'wrench/x', existingBranch: true }).catch((error: unknown) => error);
    expect((gone as Error).message).toBe('Branch "wrench/x" no longer exists in acme/web; start a new task instead.');
    expect(failureMessage(gone, 'fr')).toBe('L’exécution a échoué : La branche « wrench/x » n’existe plus dans acme/web ; lancez plutôt une nouvelle tâche.');
    const taken = await switchOn({ baseBranch: 'main', branch: 'wrench/x' }, ['wrench/x']).catch((error: unknown) => error);
    expect((taken as Error).message).toBe('Branch "wrench/x" already exists in acme/web; continue it or pick another name.');
    expect(failureMessage(taken, 'de')).toBe(
      'Der Lauf ist fehlgeschlagen: Den Branch "wrench/x" gibt es in acme/web schon; setze ihn fort oder wähle einen anderen Namen.',
    );
    const empty = await switchBranch(
      async () => {
        throw new GitError('git symbolic-ref failed', 128, '', 'fatal: ref refs/remotes/origin/HEAD is not a symbolic ref', false);
      },
      { dir: '/nowhere', label: 'acme/web', branch: 'wrench/x' },
    ).catch((error: unknown) => error);
    expect(failureMessage(empty)).toBe(`The run failed: ${(empty as Error).message}`);
    expect(failureMessage(empty, 'fr')).toBe(
      'L’exécution a échoué : Le dépôt n’a pas de branche par défaut (est-il vide ?) ; poussez un premier commit ou indiquez une branche de base.',
    );
  });

  it('a push that failed or did not land, and a conflicting revert, keep their English and say their facts in every language', () => {
    const listing = wrenchErrorSaying('push_failed', { key: 'pushFailed', branch: 'wrench/x', when: 'listing', git: 'fatal: unable to access' });
    expect(listing.message).toBe(`Could not push branch "wrench/x": could not read the remote's branches before pushing (fatal: unable to access).`);
    const verifying = wrenchErrorSaying('push_failed', { key: 'pushFailed', branch: 'wrench/x', when: 'verifying', git: 'timeout' });
    expect(verifying.message).toBe('Could not push branch "wrench/x": the push could not be verified (timeout).');
    const elsewhere = wrenchErrorSaying('push_failed', { key: 'pushNotThere', branch: 'wrench/x', sha: 'b'.repeat(40), remoteSha: 'c'.repeat(40) });
    expect(elsewhere.message).toBe(`Could not push branch "wrench/x": the remote branch is at ${'c'.repeat(40)}, not ${'b'.repeat(40)}.`);
    const nowhere = wrenchErrorSaying('push_failed', { key: 'pushNotThere', branch: 'wrench/x', sha: 'b'.repeat(40) });
    expect(nowhere.message).toBe(`Could not push branch "wrench/x": the remote branch is at nothing, not ${'b'.repeat(40)}.`);
    const conflict = wrenchErrorSaying('revert_conflict', { key: 'revertConflict', sha: '0123456789ab', files: [] });
    expect(conflict.message).toBe(
      'Reverting 0123456789ab conflicts with later changes in some files; revert it by hand or ask Wrench to undo those changes specifically.',
    );
    expect(failureMessage(nowhere, 'de')).toBe(
      `Der Lauf ist fehlgeschlagen: Ich konnte den Branch "wrench/x" nicht pushen: den Remote-Branch gibt es nicht, er sollte auf ${'b'.repeat(40)} stehen.`,
    );
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const said = (error: Error) => failureMessage(error, language);
      expect(said(listing), language).toContain('fatal: unable to access');
      expect(said(verifying), language).toContain('(timeout)');
      expect(said(elsewhere), language).toContain('c'.repeat(40));
      expect(said(conflict), language).toContain('0123456789ab');
      for (const error of [listing, verifying, elsewhere, nowhere, conflict]) {
        expect(said(error), language).toContain(error instanceof Error && error.message.includes('wrench/x') ? 'wrench/x' : '0123456789ab');
        expect(said(error), language).not.toMatch(/Could not push|remote branch|nothing|some files|by hand/);
      }
    }
  });

  it("a push that conflicts with someone else's keeps its English and names the branch, the side branch and the files in every language", () => {
    const conflict = wrenchErrorSaying('branch_conflict', {
      key: 'branchConflict',
      branch: 'wrench/x',
      side: 'wrench/x-conflict-abc',
      files: ['src/a.js', 'src/b.js'],
    });
    expect(conflict.message).toBe(
      'Someone pushed to `wrench/x` while I worked, and my changes conflict with theirs (`src/a.js`, `src/b.js`). My work is kept on the branch `wrench/x-conflict-abc`: merge it by hand, or mention me here to redo it on top of the current branch.',
    );
    const unnamed = wrenchErrorSaying('branch_conflict', { key: 'branchConflict', branch: 'wrench/x', side: 'wrench/x-conflict-abc', files: [] });
    expect(unnamed.message).toContain('conflict with theirs. My work');
    expect(failureMessage(conflict, 'de')).toBe(
      'Der Lauf ist fehlgeschlagen: Jemand hat nach `wrench/x` gepusht, während ich gearbeitet habe, und meine Änderungen kollidieren mit den seinen (`src/a.js`, `src/b.js`). Meine Arbeit liegt auf dem Branch `wrench/x-conflict-abc`: führe sie von Hand zusammen, oder erwähne mich hier, damit ich sie auf dem aktuellen Branch neu mache.',
    );
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const said = failureMessage(conflict, language);
      for (const fact of ['`wrench/x`', '`wrench/x-conflict-abc`', '`src/a.js`', '`src/b.js`']) expect(said, language).toContain(fact);
      expect(said, language).not.toMatch(/Someone pushed|by hand|mention me/);
    }
  });
});
