import { describe, expect, it } from 'vitest';
import { helpMessage, noRepositoryMessage, notAuthorizedMessage, repositoryNotAllowedMessage } from '../../../src/slack/help-messages.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

const de = stringsFor('de');
const ja = stringsFor('ja');

describe('help and the refusals before any work, in the thread language', () => {
  it('says the help in German and Japanese, the mention, paths and commands as they are', () => {
    const german = helpMessage('U0BOT', de);
    expect(german.split('\n')[0]).toBe(
      'Hallo! Erwähne <@U0BOT> mit einer Entwicklungsaufgabe, dann arbeite ich am Repository dieses Channels und öffne einen Pull Request.',
    );
    expect(german).toContain('`<@U0BOT> review PR #42`');
    expect(german).toContain('src/lib/format.ts');
    expect(german).toContain('npm test muss bestehen');
    const japanese = helpMessage(undefined, ja);
    expect(japanese.split('\n')[0]).toBe(
      'こんにちは。開発タスクを添えて @wrench をメンションしてください。このチャンネルのリポジトリで作業し、プルリクエストを作成します。',
    );
    expect(japanese).toContain('`@wrench src/cart.ts:88 の TypeError を修正して`');
    // English, word for word as before.
    expect(helpMessage('U0BOT')).toBe(
      [
        "Hi! Mention <@U0BOT> with a development task and I will work on this channel's repository and open a pull request.",
        'For example: `<@U0BOT> add tests for formatBytes in src/lib/format.ts covering 0, 1023 and 1024 bytes; npm test must pass`',
        'Other things I do: `<@U0BOT> review PR #42`, `<@U0BOT> fix the TypeError in src/cart.ts:88`, `<@U0BOT> triage: checkout returns 500 since 14:05`.',
      ].join('\n'),
    );
  });

  it('says a channel without a repository, a repository not allowed and a person not allowed in German and Japanese, the config as it is', () => {
    const config = '```\nchannels:\n  C0NONE: { repo: acme/web, baseBranch: main }\n```';
    expect(noRepositoryMessage('C0NONE', de)).toBe(
      `Dieser Channel ist noch mit keinem Repository verknüpft, daher weiß ich nicht, wo ich arbeiten soll.\nNenne eines in deiner Nachricht (zum Beispiel \`in acme/web\`) oder verknüpfe den Channel in \`wrench.config.yml\`:\n${config}`,
    );
    expect(noRepositoryMessage('C0NONE', ja)).toMatch(/^このチャンネルはまだリポジトリに関連付けられていないため/);
    expect(noRepositoryMessage('C0NONE', ja)).toContain(config);
    expect(noRepositoryMessage('C0NONE')).toBe(
      `This channel is not linked to a repository yet, so I do not know where to work.\nName one in your message (for example \`in acme/web\`), or link the channel in \`wrench.config.yml\`:\n${config}`,
    );
    expect(repositoryNotAllowedMessage('evil/repo', de)).toMatch(/^Ich darf nicht an `evil\/repo` arbeiten\.\n/);
    expect(repositoryNotAllowedMessage('evil/repo', ja)).toMatch(/^`evil\/repo` で作業することは許可されていません。\n/);
    expect(repositoryNotAllowedMessage('evil/repo')).toBe(
      'I am not allowed to work on `evil/repo`.\nAn administrator can allow it by adding it (or a glob such as `owner/*`) to `repos:` in `wrench.config.yml`.',
    );
    expect(notAuthorizedMessage(de)).toBe(
      'Du stehst nicht auf der Liste der Personen, die hier Arbeit mit Wrench starten dürfen. Bitte einen Administrator, deine Slack-User-ID unter `access.users` in `wrench.config.yml` einzutragen.',
    );
    expect(notAuthorizedMessage(ja)).toContain('`access.users`');
    expect(notAuthorizedMessage(ja)).toMatch(/^ここで Wrench に作業を依頼できる人のリストに/);
    expect(notAuthorizedMessage()).toMatch(/^You are not on the list of people who can start work with Wrench here\./);
  });

  it('says a Slack Connect refusal, a too long instruction and a failure to take a request in German and Japanese, figures and config as they are', () => {
    expect(de.sharedChannel).toContain('`access.sharedChannels: true` in `wrench.config.yml`');
    expect(ja.sharedChannel).toMatch(/^ここでは Slack コネクトのチャンネルで/);
    expect(de.instructionTooLong('21,000', '20,000')).toBe(
      'Diese Anweisung ist 21,000 Zeichen lang; ich nehme höchstens 20,000. Kürze sie, oder hänge langes Material (Logs, Daten) als Datei an und verweise darauf.',
    );
    expect(ja.instructionTooLong('21,000', '20,000')).toMatch(/^この指示は 21,000 文字あります。受け付けられるのは最大 20,000 文字です。/);
    expect(de.takingFailed).toMatch(/^:x: Beim Annehmen dieser Anfrage ist etwas schiefgegangen/);
    expect(de.mentionDropped(3)).toBe(
      ':x: Ich konnte diese Anfrage nicht annehmen: Die Bearbeitung ist 3-mal fehlgeschlagen. Es wurde nichts gestartet; erwähne mich noch einmal, um es erneut zu versuchen.',
    );
    expect(ja.mentionDropped(3)).toMatch(/^:x: このリクエストを受け付けられませんでした: 処理が 3 回失敗しました。/);
    expect(stringsFor('en').mentionDropped(3)).toBe(
      ':x: I could not take this request: handling it failed 3 times. Nothing was started; mention me again to retry.',
    );
    expect(ja.takingFailed).toContain('`wrench doctor`');
    expect(stringsFor('en').instructionTooLong('21,000', '20,000')).toBe(
      'That instruction is 21,000 characters long; I take at most 20,000. Shorten it, or attach long material (logs, data) as a file and refer to it.',
    );
  });
});
