import { describe, expect, it } from 'vitest';
import { en } from '../../../src/slack/strings/en.js';
import { stringsFor, THREAD_LANGUAGES } from '../../../src/slack/strings/index.js';

/** Pull request #7, linked as Slack does. */
const pull = { number: 7, link: (label: string) => `<https://github.test/acme/app/pull/7|${label}>` };
const details = (label: string) => `<https://ci.example.com/12|${label}>`;

/** Every note about GitHub activity, for one catalogue, with the same facts. */
function allNotes(t: typeof en.github): string[] {
  return [
    t.closed(pull, 'alice', true),
    t.closed(pull, 'alice', false),
    t.reopenedBusy(pull, 'bob'),
    t.reopened(pull, 'bob', '`wrench/one`'),
    t.reopened(pull, 'bob'),
    t.commentLead('review', 'alice', pull),
    t.commentLead('review-comment', 'alice', pull, t.place('`src/a.js`', 3, 1)),
    t.commentLead('comment', 'alice', pull),
    t.reviewLead('alice', pull, true, 2),
    t.reviewLead('alice', pull, false, 1),
    t.place('`src/a.js`', 3, null),
    t.continuing('`wrench/one`'),
    t.continuing(),
    t.baseFails('`lint`', 1, pull, '`main`', 'abc1234'),
    t.fixLimit('`unit`, `lint`', 2, 7, 2),
    t.failingRun,
    t.noEvidence('`ci/jenkins: build`', 1, pull, 'def5678'),
    t.fixRound('`unit`', 1, pull, 'def5678', 2, 2, { round: 1, count: 1 }),
    t.fixRound('`unit`', 1, pull, 'def5678', 1, 2),
    t.passed('`unit`', 1, pull, 'def5678', 2),
    t.statusFailed('`ci/jenkins`', pull, 'def5678', 'Build #12 failed', details),
    t.statusFailed('`ci/jenkins`', pull, 'def5678'),
    t.couldNotAct('review-comment', 'alice', pull, 'Bad credentials'),
    t.couldNotAct('reopened', undefined, pull, 'Bad credentials'),
  ];
}

describe("Wrench's notes about GitHub activity on a thread's pull request, in the thread's language", () => {
  it('English says them word for word as before', () => {
    const t = stringsFor('en').github;
    expect(t.closed(pull, 'alice', true)).toBe(
      "<https://github.test/acme/app/pull/7|Pull request #7> was merged by @alice. This thread's work is done; mention me here to start something new (it gets a new branch and pull request).",
    );
    expect(t.closed(pull, 'alice', false)).toBe(
      "<https://github.test/acme/app/pull/7|Pull request #7> was closed without merging by @alice. This thread's work is done; mention me here to start something new (it gets a new branch and pull request). If the pull request is reopened, this thread continues it.",
    );
    expect(t.reopenedBusy(pull, 'bob')).toBe(
      '<https://github.test/acme/app/pull/7|Pull request #7> was reopened by @bob, but this thread has started other work since, so it does not continue that pull request here. Comment on the pull request mentioning me, or start a new thread, to work on it.',
    );
    expect(t.reopened(pull, 'bob', '`wrench/one`')).toBe(
      '<https://github.test/acme/app/pull/7|Pull request #7> was reopened by @bob: this thread continues it on `wrench/one`. Mention me here, or comment on the pull request, to go on.',
    );
    expect(t.reopened(pull, 'bob')).toBe(
      '<https://github.test/acme/app/pull/7|Pull request #7> was reopened by @bob: this thread continues it. Mention me here, or comment on the pull request, to go on.',
    );
    expect(t.commentLead('review', 'alice', pull)).toBe('@alice requested changes on <https://github.test/acme/app/pull/7|pull request #7>:');
    expect(t.commentLead('comment', 'alice', pull)).toBe('@alice wrote on <https://github.test/acme/app/pull/7|pull request #7>:');
    expect(t.commentLead('review-comment', 'alice', pull, t.place('`src/a.js`', 3, 1))).toBe(
      '@alice commented on <https://github.test/acme/app/pull/7|pull request #7> on `src/a.js` lines 1–3:',
    );
    expect(t.place('`src/a.js`', 3, 3)).toBe('`src/a.js` line 3');
    expect(t.place('`src/a.js`', null, null)).toBe('`src/a.js`');
    expect(t.reviewLead('alice', pull, true, 2)).toBe('@alice requested changes on <https://github.test/acme/app/pull/7|pull request #7> with 2 comments:');
    expect(t.reviewLead('alice', pull, false, 1)).toBe('@alice reviewed on <https://github.test/acme/app/pull/7|pull request #7> with 1 comment:');
    expect(t.continuing('`wrench/one`')).toBe("I'm continuing on `wrench/one` with that.");
    expect(t.continuing()).toBe("I'm continuing on `the branch` with that.");
    expect(t.baseFails('`lint`', 1, pull, '`main`', 'abc1234')).toBe(
      "`lint` failed on <https://github.test/acme/app/pull/7|pull request #7>, but fails on `main` (abc1234) too, so this change did not cause it; I'm not starting a fix round. Fix it on `main` first, or mention me here with what to do.",
    );
    expect(t.fixLimit('`unit`', 1, 7, 1)).toBe(
      "`unit` still fails on pull request #7 after 1 fix round (the limit, `github.maxFixRounds`), so I'm not trying again; it needs a person now.",
    );
    expect(t.fixLimit('`unit`, `lint`', 2, 7, 2)).toBe(
      "`unit`, `lint` still fail on pull request #7 after 2 fix rounds (the limit, `github.maxFixRounds`), so I'm not trying again; it needs a person now.",
    );
    expect(t.failingRun).toBe('The failing run.');
    expect(t.noEvidence('`ci/jenkins: build`', 1, pull, 'def5678')).toBe(
      "`ci/jenkins: build` failed on <https://github.test/acme/app/pull/7|pull request #7> (head def5678), but I could read nothing about why (no log, no output, no annotations), so I'm not spending a fix round on a guess. Open the failing check and tell me here what to fix.",
    );
    expect(t.fixRound('`unit`', 1, pull, 'def5678', 1, 2)).toBe(
      "`unit` failed on <https://github.test/acme/app/pull/7|pull request #7> (head def5678). Fix round 1 of 2: I'm looking at what the CI reported.",
    );
    expect(t.fixRound('`unit`, `lint`', 2, pull, 'def5678', 2, 3, { round: 1, count: 2 })).toBe(
      "`unit`, `lint` still fail after fix round 1 on <https://github.test/acme/app/pull/7|pull request #7> (head def5678). Fix round 2 of 3: I'm looking at what the CI reported.",
    );
    expect(t.passed('`unit`', 1, pull, 'def5678', 2)).toBe(
      '`unit` passes on <https://github.test/acme/app/pull/7|pull request #7> (head def5678) after fix round 2.',
    );
    expect(t.passed('`unit`, `lint`', 2, pull, 'def5678', 2)).toBe(
      '`unit`, `lint` pass on <https://github.test/acme/app/pull/7|pull request #7> (head def5678) after fix round 2.',
    );
    expect(t.statusFailed('`ci/jenkins`', pull, 'def5678', 'Build #12 failed', details)).toBe(
      "`ci/jenkins` reported failure on <https://github.test/acme/app/pull/7|pull request #7> (head def5678): “Build #12 failed”. Details: <https://ci.example.com/12|the CI run>. I can't read that CI's logs from here, so I'm not starting a fix round on a guess: paste the failing output here, or tell me what to fix.",
    );
    expect(t.statusFailed('`ci/jenkins`', pull, 'def5678')).toBe(
      "`ci/jenkins` reported failure on <https://github.test/acme/app/pull/7|pull request #7> (head def5678). I can't read that CI's logs from here, so I'm not starting a fix round on a guess: paste the failing output here, or tell me what to fix.",
    );
    expect(t.couldNotAct('review-comment', 'alice', pull, 'Bad credentials')).toBe(
      "I could not act on the review comment by @alice on <https://github.test/acme/app/pull/7|pull request #7>: Bad credentials. Once that is fixed, redeliver it from the GitHub App's settings (Advanced → Recent Deliveries), or say here what to do.",
    );
    expect(t.couldNotAct('closed', undefined, pull, 'x')).toMatch(/^I could not act on the closing of the pull request on /);
    expect(t.couldNotAct('reopened', undefined, pull, 'x')).toMatch(/^I could not act on the event on /);
  });

  it('German says them with "du", the logins, checks, branches, shas, links and error text as they are', () => {
    const t = stringsFor('de').github;
    expect(t.closed(pull, 'alice', false)).toBe(
      '<https://github.test/acme/app/pull/7|Pull Request #7> wurde von @alice ohne Merge geschlossen. Die Arbeit dieses Threads ist erledigt; erwähne mich hier, um etwas Neues zu beginnen (es bekommt einen neuen Branch und einen neuen Pull Request). Wird der Pull Request wieder geöffnet, setzt dieser Thread ihn fort.',
    );
    expect(t.closed(pull, 'alice', true)).toMatch(/^<https:\/\/github\.test\/acme\/app\/pull\/7\|Pull Request #7> wurde von @alice gemergt\. /);
    expect(t.reopenedBusy(pull, 'bob')).toMatch(
      /^<[^>]+\|Pull Request #7> wurde von @bob wieder geöffnet, aber dieser Thread hat seitdem andere Arbeit begonnen/,
    );
    expect(t.reopened(pull, 'bob', '`wrench/one`')).toBe(
      '<https://github.test/acme/app/pull/7|Pull Request #7> wurde von @bob wieder geöffnet: Dieser Thread setzt ihn fort auf `wrench/one`. Erwähne mich hier oder kommentiere den Pull Request, um weiterzumachen.',
    );
    expect(t.commentLead('review-comment', 'alice', pull, t.place('`src/a.js`', 3, 1))).toBe(
      '@alice hat in <https://github.test/acme/app/pull/7|Pull Request #7> zu `src/a.js` Zeilen 1–3 kommentiert:',
    );
    expect(t.commentLead('review', 'alice', pull)).toBe('@alice hat in <https://github.test/acme/app/pull/7|Pull Request #7> Änderungen angefordert:');
    expect(t.commentLead('comment', 'alice', pull)).toBe('@alice hat in <https://github.test/acme/app/pull/7|Pull Request #7> geschrieben:');
    expect(t.reviewLead('alice', pull, true, 2)).toBe(
      '@alice hat <https://github.test/acme/app/pull/7|Pull Request #7> mit 2 Kommentaren reviewt und Änderungen angefordert:',
    );
    expect(t.place('`src/a.js`', 3, null)).toBe('`src/a.js` Zeile 3');
    expect(t.continuing('`wrench/one`')).toBe('Ich mache damit auf `wrench/one` weiter.');
    expect(t.continuing()).toBe('Ich mache damit auf dem Branch weiter.');
    expect(t.baseFails('`lint`', 1, pull, '`main`', 'abc1234')).toBe(
      '`lint` ist in <https://github.test/acme/app/pull/7|Pull Request #7> fehlgeschlagen, schlägt aber auch auf `main` (abc1234) fehl; diese Änderung hat das also nicht verursacht, und ich starte keine Fix-Runde. Behebe es zuerst auf `main`, oder erwähne mich hier und sag, was zu tun ist.',
    );
    expect(t.fixLimit('`unit`, `lint`', 2, 7, 2)).toBe(
      '`unit`, `lint` schlagen in Pull Request #7 nach 2 Fix-Runden immer noch fehl (das Limit, `github.maxFixRounds`), deshalb versuche ich es nicht noch einmal; jetzt braucht es einen Menschen.',
    );
    expect(t.failingRun).toBe('Der fehlgeschlagene CI-Lauf.');
    expect(t.noEvidence('`ci/jenkins: build`', 1, pull, 'def5678')).toMatch(
      /^`ci\/jenkins: build` ist in <[^>]+\|Pull Request #7> \(Head def5678\) fehlgeschlagen, aber ich konnte nichts darüber lesen, warum/,
    );
    expect(t.fixRound('`unit`', 1, pull, 'def5678', 2, 2, { round: 1, count: 1 })).toBe(
      '`unit` schlägt in <https://github.test/acme/app/pull/7|Pull Request #7> (Head def5678) nach Fix-Runde 1 immer noch fehl. Fix-Runde 2 von 2: Ich sehe mir an, was die CI gemeldet hat.',
    );
    expect(t.fixRound('`unit`', 1, pull, 'def5678', 1, 2)).toMatch(/^`unit` ist in <[^>]+> \(Head def5678\) fehlgeschlagen\. Fix-Runde 1 von 2: /);
    expect(t.passed('`unit`', 1, pull, 'def5678', 2)).toBe(
      '`unit` besteht in <https://github.test/acme/app/pull/7|Pull Request #7> (Head def5678) nach Fix-Runde 2.',
    );
    expect(t.statusFailed('`ci/jenkins`', pull, 'def5678', 'Build #12 failed', details)).toBe(
      '`ci/jenkins` hat in <https://github.test/acme/app/pull/7|Pull Request #7> (Head def5678) einen Fehlschlag gemeldet: „Build #12 failed“. Details: <https://ci.example.com/12|der CI-Lauf>. Die Logs dieser CI kann ich von hier aus nicht lesen, deshalb starte ich keine Fix-Runde auf gut Glück: Füge die fehlgeschlagene Ausgabe hier ein oder sag mir, was ich beheben soll.',
    );
    expect(t.couldNotAct('review-comment', 'alice', pull, 'Bad credentials')).toBe(
      'Ich konnte auf den Review-Kommentar von @alice in <https://github.test/acme/app/pull/7|Pull Request #7> nicht reagieren: Bad credentials. Sobald das behoben ist, liefere es in den Einstellungen der GitHub App erneut aus (Advanced → Recent Deliveries), oder sag hier, was zu tun ist.',
    );
    expect(t.couldNotAct('reopened', undefined, pull, 'x')).toMatch(/^Ich konnte auf das Ereignis in /);
  });

  it('French says them with "vous", a space before the colon and « » around what a status says', () => {
    const t = stringsFor('fr').github;
    expect(t.reopened(pull, 'bob', '`wrench/one`')).toBe(
      'La <https://github.test/acme/app/pull/7|pull request #7> a été rouverte par @bob : ce fil la reprend sur `wrench/one`. Mentionnez-moi ici, ou commentez la pull request, pour continuer.',
    );
    expect(t.commentLead('comment', 'alice', pull)).toBe('@alice a écrit sur la <https://github.test/acme/app/pull/7|pull request #7> :');
    expect(t.statusFailed('`ci/jenkins`', pull, 'def5678', 'Build #12 failed', details)).toMatch(
      /^`ci\/jenkins` a signalé un échec sur la <[^>]+> \(head def5678\) : « Build #12 failed »\. Détails : <https:\/\/ci\.example\.com\/12\|l’exécution de la CI>\. /,
    );
    expect(t.couldNotAct('review', 'alice', pull, 'Bad credentials')).toMatch(/^Je n’ai pas pu traiter la revue de @alice sur la <[^>]+> : Bad credentials\. /);
  });

  it('every language says every note in its own words, keeping the facts', () => {
    const english = allNotes(en.github);
    for (const language of THREAD_LANGUAGES.filter((l) => l !== 'en')) {
      const notes = allNotes(stringsFor(language).github);
      for (const [index, note] of notes.entries()) expect(note, `${language} #${index}`).not.toBe(english[index]);
      const said = notes.join('\n');
      for (const fact of [
        '@alice',
        '@bob',
        '`wrench/one`',
        '`main`',
        'abc1234',
        'def5678',
        '`unit`',
        'Build #12 failed',
        'Bad credentials',
        '`github.maxFixRounds`',
      ])
        expect(said, `${language}: ${fact}`).toContain(fact);
      expect(said, language).toContain('<https://github.test/acme/app/pull/7|');
      expect(said, language).toContain('<https://ci.example.com/12|');
    }
  });
});
