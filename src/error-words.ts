import { type SecretKind, secretKindEn } from './security/secret-kind.js';

/** A place in the commits a push would send that holds a credential: a file's line, or a commit message's (`message`: its short sha). */
export type SecretPlace = ({ file: string } | { message: string }) & { line: number; kind: SecretKind };

/**
 * What a typed error a requester commonly meets says, as its thrower knows it: a key and its facts, never words.
 * The error's message is its English (`errorEn`: the run record, the log, the CLI); a Slack thread says it in its
 * language (`errors` of src/slack/strings/). Branches, paths, ids, hosts and commands are parameters, as they are.
 */
export type ErrorDetail =
  /** A push refused for credentials: every one of its `places` (`reword`: one is in a commit message); `held` where its commits are kept. */
  | {
      key: 'pushBlockedSecret';
      branch: string;
      places: readonly SecretPlace[];
      reword: boolean;
      held?: { id: string; ref: string; days?: number; host?: string };
    }
  | { key: 'repositoryNotFound'; repository: string }
  /** No GitHub credential is configured, and the run needs one to open a pull request or to read the one it reviews. */
  | { key: 'githubNotConfigured'; need: 'pullRequest' | 'review' }
  | { key: 'baseBranchNotFound'; repository: string; branch: string }
  | { key: 'noDefaultBranch' }
  | { key: 'branchNotFound'; repository: string; branch: string }
  | { key: 'branchExists'; repository: string; branch: string }
  /** Someone pushed to `branch` meanwhile: `git`, git's reason for refusing the push; absent, the lease was stale. */
  | { key: 'branchMoved'; branch: string; git?: string }
  /** A push that failed while reading the remote's branches, verifying it or pushing: `git`, git's own words. */
  | { key: 'pushFailed'; branch: string; when: 'listing' | 'verifying' | 'pushing'; git: string }
  /** The push went through, yet the remote branch is at `remoteSha` (absent: nowhere), not `sha`. */
  | { key: 'pushNotThere'; branch: string; sha: string; remoteSha?: string }
  /** Someone pushed to `branch` while the run worked and its changes conflict in `files`; the run's work is on `side`. */
  | { key: 'branchConflict'; branch: string; side: string; files: readonly string[] }
  /** `git revert` of `sha` conflicts in `files` (none named: git did not say). */
  | { key: 'revertConflict'; sha: string; files: readonly string[] }
  /**
   * The data dir's disk filled up mid-run (ENOSPC). `kept`: the run's working tree, kept as it was (what it committed and
   * what it had not) as `held/<id>.tree` on worker `host` for `days`; absent, there was no tree yet to keep.
   */
  | { key: 'diskFull'; kept?: { id: string; host?: string; days?: number } };

export type ErrorKey = ErrorDetail['key'];
type ParamsOf<K extends ErrorKey> = Omit<Extract<ErrorDetail, { key: K }>, 'key'>;

/** A phrase for every key: a catalogue lacking one does not compile. */
export type ErrorStrings = { [K in ErrorKey]: keyof ParamsOf<K> extends never ? string : (params: ParamsOf<K>) => string };

/** Files as code, comma-separated, put in `around`; nothing when there are none. */
export const codeList = (files: readonly string[], around: (list: string) => string) =>
  files.length ? around(files.map((file) => `\`${file}\``).join(', ')) : '';

/** `held/<id>.bundle` fetched as it is: the command an operator runs in a clone. */
export const fetchHeld = (id: string, ref: string) => `\`git fetch "$WRENCH_DATA_DIR/held/${id}.bundle" ${ref}\``;

export const errorEn: ErrorStrings = {
  pushBlockedSecret: ({ branch, places, reword, held }) => {
    const where = places.map((place) =>
      'file' in place
        ? `\`${place.file}\` line ${place.line} holds ${secretKindEn(place.kind)}`
        : `the message of commit ${place.message} (line ${place.line}) holds ${secretKindEn(place.kind)}`,
    );
    const fix = reword ? 'remove it (and reword that commit)' : 'remove it';
    // Named by id, not path: the thread is no place for the machine's file system. The worker is named: with several,
    // only the one that ran the job has the bundle.
    const on = held?.host ? `on Wrench worker \`${held.host}\`` : 'on the Wrench machine';
    const kept = held
      ? ` The commits are kept ${on} as held bundle \`${held.id}\`${held.days ? ` for ${held.days} days` : ''} (readable by Wrench's user only; \`wrench doctor\` on ${held.host ? 'that' : 'the'} worker lists them); an operator gets them in a clone of the repository with ${fetchHeld(held.id, held.ref)}.`
      : '';
    return `I did not push \`${branch}\`: ${where.join('; ')}. Nothing of this run left this machine; ${fix} and mention me to retry.${kept}`;
  },
  githubNotConfigured: ({ need }) =>
    need === 'review'
      ? 'Reviewing a pull request needs a GitHub credential; set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App.'
      : 'No GitHub credential is configured, so I cannot open a pull request. Set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App.',
  repositoryNotFound: ({ repository }) =>
    `${repository} was not found, or Wrench's GitHub credentials cannot read it: check the repository linked to this channel (wrench.config.yml) and that Wrench has access to it.`,
  baseBranchNotFound: ({ repository, branch }) => `${repository} has no branch "${branch}"; name an existing base branch.`,
  noDefaultBranch: 'The repository has no default branch (is it empty?); push an initial commit or name a base branch.',
  branchNotFound: ({ repository, branch }) => `Branch "${branch}" no longer exists in ${repository}; start a new task instead.`,
  branchExists: ({ repository, branch }) => `Branch "${branch}" already exists in ${repository}; continue it or pick another name.`,
  branchMoved: ({ branch, git }) =>
    git
      ? `Could not push branch "${branch}": the remote branch has commits this workspace does not have (${git}).`
      : `Could not push branch "${branch}": the remote branch moved since this workspace fetched it (stale info).`,
  pushFailed: ({ branch, when, git }) =>
    when === 'pushing'
      ? `Could not push branch "${branch}": ${git}; check that the GitHub credential may push to this repository.`
      : `Could not push branch "${branch}": ${when === 'listing' ? "could not read the remote's branches before pushing" : 'the push could not be verified'} (${git}).`,
  pushNotThere: ({ branch, sha, remoteSha }) => `Could not push branch "${branch}": the remote branch is at ${remoteSha || 'nothing'}, not ${sha}.`,
  branchConflict: ({ branch, side, files }) =>
    `Someone pushed to \`${branch}\` while I worked, and my changes conflict with theirs${codeList(files, (list) => ` (${list})`)}. My work is kept on the branch \`${side}\`: merge it by hand, or mention me here to redo it on top of the current branch.`,
  revertConflict: ({ sha, files }) =>
    `Reverting ${sha} conflicts with later changes in ${files.join(', ') || 'some files'}; revert it by hand or ask Wrench to undo those changes specifically.`,
  diskFull: ({ kept }) =>
    kept
      ? `The disk of Wrench's data dir filled up (no space left on device), so I stopped before finishing. Nothing is lost: the work so far (what I committed and what I had not) is kept ${kept.host ? `on Wrench worker \`${kept.host}\`` : 'on the Wrench machine'} in \`$WRENCH_DATA_DIR/held/${kept.id}.tree\`${kept.days ? ` for ${kept.days} days` : ''}. Once an operator frees space, mention me to try again.`
      : "The disk of Wrench's data dir is full (no space left on device), so the run could not start its work; nothing was changed. Once an operator frees space, mention me to try again.",
};

/** `detail` in `strings` (English by default). */
export function renderError(detail: ErrorDetail, strings: ErrorStrings = errorEn): string {
  const phrase = strings[detail.key] as string | ((params: ErrorDetail) => string);
  return typeof phrase === 'string' ? phrase : phrase(detail);
}
