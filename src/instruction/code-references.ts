/** Unlabelled pointers into code and its history, found anywhere in an instruction. */
export interface CodeReferences {
  /** File paths, with `:line[:column]` when given. */
  files: string[];
  directories: string[];
  functions: string[];
  /** HTTP routes such as `POST /auth/reset` or `/search`. */
  routes: string[];
  repositories: string[];
  prNumbers: number[];
  commits: string[];
  /** Bare domains such as `example.org` (URLs are listed separately). */
  domains: string[];
}

const EXTENSIONS =
  'tsx|ts|mts|cts|jsx|js|mjs|cjs|py|ipynb|rb|go|rs|java|kt|kts|scala|swift|cs|cpp|cc|hpp|h|c|php|ex|exs|erl|clj|dart|lua|r|sql|' +
  'jsonl|ndjson|json|csv|tsv|parquet|xlsx|xls|yml|yaml|toml|ini|cfg|conf|env|md|mdx|rst|txt|html|htm|css|scss|sass|less|vue|svelte|' +
  'sh|bash|zsh|ps1|proto|graphql|gql|tf|hcl|xml|lock|gradle|properties|log|pdf|png|svg|dockerfile';

const PATH = new RegExp(
  String.raw`(?<![\w/.@:~-])((?:\.{1,2}\/|~\/)?(?:[\w@.*{}\[\]-]+\/)+[\w@.*{}\[\]-]*|[\w-][\w.-]*\.(?:${EXTENSIONS})\b|Dockerfile|Makefile|README|CHANGELOG|LICENSE|CONTRIBUTING)(?::(\d+)(?::(\d+))?)?`,
  'g',
);
const FILE_WITH_EXTENSION = new RegExp(String.raw`\.(?:${EXTENSIONS})$`, 'i');
const LIBRARY_NAMES =
  /^console\.\w+$|^(?:node|next|nuxt|vue|react|express|three|chart|d3|moment|day|ember|backbone|angular|socket|p5|deno|bun|nest|solid|alpine)\.js$/i;
const COMMON_DIRECTORIES = new Set(
  (
    'src lib libs test tests spec specs e2e app apps packages package docs doc scripts script bin data config configs pkg cmd internal ' +
    'components pages api server client web public assets static fixtures exports export tmp build dist migrations db models routes ' +
    'services handlers controllers views templates styles utils helpers frontend backend infra deploy charts k8s terraform tools ' +
    'examples notebooks reports modules core common shared include crates go python jobs workers runners bench benchmarks .github'
  ).split(' '),
);
const NOT_PATHS = new Set(
  (
    'and/or read/write input/output i/o ci/cd tcp/ip on/off yes/no true/false get/set client/server frontend/backend front-end/back-end ' +
    'dev/prod staging/prod async/await n/a w/o either/or pros/cons a/b ui/ux ux/ui before/after open/close start/stop login/logout ' +
    'import/export encode/decode add/remove create/delete enable/disable allow/deny min/max x/y upload/download request/response ' +
    'req/res he/she his/her and/ors or/and src/dest to/from 24/7 read/only'
  ).split(' '),
);
const SEVERITY_WORD = /^(?:critical|blocker|major|high|medium|moderate|minor|low|info|nit|trivial|p[0-4]|sev[0-4])$/i;
const RATE_UNITS = /^(?:s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|wk|week|ms|month|year|page|ip|key|user)$/i;
const REPOSITORY_CONTEXT = /\b(?:repo|repository|repos|in|on|at|for|from|of|against|github|gh)\s*[:]?\s*$/i;
const BACKTICKED = /`([^`\n]+)`/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\([^()]*\))?$/;
const FUNCTION_NOUNS = /^(?:function|functions|method|methods|helper|hook|handler|call|calls|callback|util|utility|routine|func|fn|implementation)\b/i;
const NON_FUNCTION_NOUNS =
  /^(?:command|flag|option|field|column|property|prop|key|variable|var|env|table|param|parameter|type|interface|class|component|module|package|header|event|config|setting|constant|enum|value|attribute|argument|arg|script|file)\b/i;
const FUNCTION_VERBS_BEFORE =
  /\b(?:mock|mocks|mocking|stub|stubs|spy on|call|calls|calling|invoke|invokes|function|method|helper|in|inside|from|fix|test|tests|cover|refactor|rename|extract|inline)\s*$/i;
const NON_FUNCTION_BEFORE = /\b(?:without|field|property|prop|key|column|attribute|param|flag|option|env|header|type|the value|set|sets|value)\s*$/i;
const STACK_FRAME_JS = /^\s*at\s+(?:async\s+)?([\w$.<>[\] ]+?)\s+\(([^)]+)\)/gm;
const STACK_FRAME_PY = /File "([^"]+)", line (\d+)(?:, in ([\w<>]+))?/g;
const ROUTE = /(?:^|(?<=[\s(`"']))(?:(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+)?(\/[A-Za-z0-9_{}:.-]+(?:\/[A-Za-z0-9_{}:.-]*)*)/g;
const COMMIT = /(?<![\w/#.-])([0-9a-f]{7,40})(?![\w-])/g;
const PR_NUMBER = /\b(?:PR|pull request|MR|merge request)s?\s*#?\s*(\d{1,6})\b|(?<![\w&/])#(\d{1,6})\b/gi;
const REPOSITORY_PR = /(?<![\w/.-])([\w.-]+\/[\w.-]+)#(\d{1,6})\b/g;
const NOT_A_PR_BEFORE = /\b(?:issue|issues|ticket|tickets|bug|jira|story|step|item|rank|number)\s*$/i;
const DOMAIN =
  /(?<![\w@./-])((?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|co|ai|gov|edu|de|uk|fr|nl|info|biz|us|ca|jp|xyz|dk|se|no|fi|es|it|pt|ch|at|be|au|nz|br|mx|ar|cl|ru|ua|cz|sk|hu|ro|gr|tr|il|kr|cn|tw|hk|sg|za|ie|eu|app|shop|store|tech|site|online|me|tv|fm|gg|ly))(?![\w-])/gi;
const GITHUB_URL = /^https?:\/\/(?:www\.)?github\.com\/([\w.-]+)\/([\w.-]+)(?:\/(pull|commit|blob|tree)\/([\w.-]+)(?:\/([^#?]*))?)?(?:#L(\d+))?/i;
const LINE_NUMBER = /\b(?:line|ln|l\.)\s*(\d{1,6})\b/gi;
const URL_ANYWHERE = /\b(?:https?|ftp|s3|gs):\/\/[^\s<>|"'`]+/g;

export function findCodeReferences(prose: string, codeBlocks: string[], urls: string[]): CodeReferences {
  const found: CodeReferences = {
    files: [],
    directories: [],
    functions: [],
    routes: [],
    repositories: [],
    prNumbers: [],
    commits: [],
    domains: [],
  };
  const text = prose.replace(URL_ANYWHERE, ' ');
  collectPaths(text, found, false);
  for (const block of codeBlocks) {
    collectStackFrames(block, found);
    collectPaths(block, found, true);
  }
  collectLineNumbers(text, found);
  collectFunctions(text, found);
  collectRoutes(text, found);
  collectCommits(text, found);
  collectPrNumbers(text, found);
  collectDomains(text, found);
  for (const url of urls) collectFromGithubUrl(url, found);
  return found;
}

function collectPaths(text: string, found: CodeReferences, inCode: boolean): void {
  for (const match of text.matchAll(PATH)) {
    const raw = (match[1] ?? '').replace(/[.,;:]+$/, '');
    if (!raw || raw.includes('node_modules') || /^(?:node:|internal\/)/.test(raw)) continue;
    const kind = pathKind(raw, text.slice(Math.max(0, (match.index ?? 0) - 25), match.index), inCode);
    if (kind === 'file') add(found.files, match[2] ? `${raw}:${match[2]}${match[3] ? `:${match[3]}` : ''}` : raw);
    else if (kind === 'directory') add(found.directories, raw);
    else if (kind === 'repository' && !inCode) add(found.repositories, raw);
  }
}

function pathKind(path: string, before: string, inCode: boolean): 'file' | 'directory' | 'repository' | undefined {
  if (/^(?:Dockerfile|Makefile|README|CHANGELOG|LICENSE|CONTRIBUTING)$/.test(path)) return 'file';
  const segments = path.split('/').filter(Boolean);
  if (FILE_WITH_EXTENSION.test(path)) {
    if (LIBRARY_NAMES.test(path) || segments.some((segment) => /^(?:[\w-]+\.)+(?:com|org|net|io)$/i.test(segment))) return undefined;
    return 'file';
  }
  if (segments.length < 2 && !path.endsWith('/')) return undefined;
  if (NOT_PATHS.has(path.toLowerCase()) || segments.every((segment) => /^\d+$/.test(segment))) return undefined;
  if (segments.some((segment) => /^(?:[\w-]+\.)+[a-z]{2,}$/i.test(segment) && !segment.startsWith('.'))) return undefined;
  if (segments.every((segment) => SEVERITY_WORD.test(segment))) return undefined;
  if (segments.every((segment) => /^[A-Z][a-z]*$/.test(segment)) || segments.every((segment) => /^[A-Z0-9]+$/.test(segment))) {
    return undefined;
  }
  if (RATE_UNITS.test(segments[segments.length - 1] ?? '') && !path.endsWith('/')) return undefined;
  if (path.endsWith('/') || segments.length > 2 || path.startsWith('.') || COMMON_DIRECTORIES.has((segments[0] ?? '').toLowerCase())) {
    return 'directory';
  }
  if (inCode || /\bbranch(?:es)?\s*$/i.test(before)) return undefined;
  return REPOSITORY_CONTEXT.test(before) && segments.every((segment) => /^[\w.-]+$/.test(segment)) ? 'repository' : undefined;
}

function collectStackFrames(block: string, found: CodeReferences): void {
  for (const frame of block.matchAll(STACK_FRAME_JS)) {
    const name = (frame[1] ?? '').trim();
    if (name && !/<anonymous>|^(?:Object|Module|Date|Array|Promise|process|node:)\b|^new /.test(name)) add(found.functions, name);
  }
  for (const frame of block.matchAll(STACK_FRAME_PY)) {
    const file = frame[1] ?? '';
    if (!/site-packages|<|^\/usr\//.test(file)) add(found.files, `${file}:${frame[2]}`);
    if (frame[3] && !frame[3].startsWith('<')) add(found.functions, frame[3]);
  }
}

/** "src/x.ts line 88" and "line 88 of src/x.ts" both become `src/x.ts:88`; a lone "line 88" stays as it is. */
function collectLineNumbers(text: string, found: CodeReferences): void {
  for (const match of text.matchAll(LINE_NUMBER)) {
    const start = match.index ?? 0;
    const before = text.slice(Math.max(0, start - 80), start);
    const after = /^\s+(?:of|in)\s+`?(\S+)/.exec(text.slice(start + match[0].length))?.[1]?.replace(/[`,.;:)]+$/, '');
    const unnumbered = (file: string) => !/:\d+$/.test(file);
    const nearestFile =
      found.files.find((file) => unnumbered(file) && after === file) ?? [...found.files].reverse().find((file) => unnumbered(file) && before.includes(file));
    if (nearestFile) found.files[found.files.indexOf(nearestFile)] = `${nearestFile}:${match[1]}`;
    else add(found.files, `line ${match[1]}`);
  }
}

function collectFunctions(text: string, found: CodeReferences): void {
  for (const match of text.matchAll(BACKTICKED)) {
    const inner = (match[1] ?? '').trim();
    if (!IDENTIFIER.test(inner) || FILE_WITH_EXTENSION.test(inner)) continue;
    const start = match.index ?? 0;
    const before = text.slice(Math.max(0, start - 20), start);
    const after = text.slice(start + match[0].length).trimStart();
    if (looksLikeFunction(inner, before, after)) add(found.functions, inner.replace(/\(.*\)$/, ''));
  }
  for (const match of text.matchAll(/(?<![\w`.$])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)/g)) addGroup(found.functions, match[1]);
  for (const match of text.matchAll(/\b(?:function|method|helper)\s+([a-z_$][a-z0-9$]*[A-Z_][\w$]*)\b/g)) addGroup(found.functions, match[1]);
  for (const match of text.matchAll(/(?<![`\w$])([a-z_$][a-z0-9_$]*[A-Z][\w$]*)\s+(?:function|method|helper)\b/g)) addGroup(found.functions, match[1]);
}

function looksLikeFunction(name: string, before: string, after: string): boolean {
  if (name.endsWith(')')) return true;
  if (FUNCTION_NOUNS.test(after)) return true;
  if (NON_FUNCTION_NOUNS.test(after) || NON_FUNCTION_BEFORE.test(before)) return false;
  if (/[.#]|::/.test(name)) return true;
  if (/^[a-z_$][a-z0-9_$]*[A-Z][\w$]*$/.test(name)) return true;
  return FUNCTION_VERBS_BEFORE.test(before) && /^[a-z_$]/.test(name);
}

function collectRoutes(text: string, found: CodeReferences): void {
  for (const match of text.matchAll(ROUTE)) {
    const path = (match[2] ?? '').replace(/[.,;:]+$/, '');
    const segments = path.split('/').filter(Boolean);
    const [first] = segments;
    if (first === undefined || RATE_UNITS.test(first) || /^\d+$/.test(first)) continue;
    if (found.files.some((file) => file.includes(path)) || found.directories.some((dir) => dir.includes(path))) continue;
    add(found.routes, match[1] ? `${match[1]} ${path}` : path);
  }
}

function collectCommits(text: string, found: CodeReferences): void {
  for (const match of text.matchAll(COMMIT)) {
    const sha = match[1] ?? '';
    if (/\d/.test(sha) && /[a-f]/.test(sha)) add(found.commits, sha);
  }
}

function collectPrNumbers(text: string, found: CodeReferences): void {
  for (const match of text.matchAll(PR_NUMBER)) {
    const before = text.slice(Math.max(0, (match.index ?? 0) - 12), match.index);
    if (match[2] && NOT_A_PR_BEFORE.test(before)) continue;
    add(found.prNumbers, Number(match[1] ?? match[2]));
  }
  for (const match of text.matchAll(REPOSITORY_PR)) {
    addGroup(found.repositories, match[1]);
    add(found.prNumbers, Number(match[2]));
  }
}

function collectDomains(text: string, found: CodeReferences): void {
  for (const match of text.matchAll(DOMAIN)) {
    const domain = (match[1] ?? '').toLowerCase();
    if (!FILE_WITH_EXTENSION.test(domain)) add(found.domains, domain);
  }
}

function collectFromGithubUrl(url: string, found: CodeReferences): void {
  const github = GITHUB_URL.exec(url);
  if (!github) {
    const host = /^https?:\/\/([^/:?#]+)/i.exec(url)?.[1];
    if (host) add(found.domains, host.toLowerCase().replace(/^www\./, ''));
    return;
  }
  const [, owner, repo, kind, id, path, line] = github;
  add(found.repositories, `${owner}/${(repo ?? '').replace(/\.git$/, '')}`);
  if (kind === 'pull' && id && /^\d+$/.test(id)) add(found.prNumbers, Number(id));
  if (kind === 'commit' && id) add(found.commits, id);
  if ((kind === 'blob' || kind === 'tree') && path) add(kind === 'blob' ? found.files : found.directories, line ? `${path}:${line}` : path);
}

function add<T>(list: T[], value: T): void {
  if (!list.includes(value)) list.push(value);
}

/** Adds a regex group's text; a group that took no part adds nothing. */
function addGroup(list: string[], value: string | undefined): void {
  if (value !== undefined) add(list, value);
}
