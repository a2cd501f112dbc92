import { z } from 'zod';
import { CATEGORIES } from '../categories.js';
import { monitoringSourceSchema } from './monitoring-source.js';
import { parseAllowEntry } from '../sandbox/egress/egress-policy.js';
import { parseUpstreamProxyUrl } from '../sandbox/egress/upstream-proxy.js';
import { treePattern } from './tree-pattern.js';
import { WRENCH_IDENTITY } from '../workspace/git-identity.js';
import { cronProblem, isTimeZone } from '../schedules/schedule-times.js';

// Every key's words for the reference (docs/configuration.md, `npm run docs:generate`) are its `.meta({ description })`.

const repoName = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { message: 'must be owner/name, for example acme/web' });

const repoGlob = z.string().regex(/^[A-Za-z0-9_.*?-]+\/[A-Za-z0-9_.*?-]+$/, { message: 'must be an owner/name glob, for example acme/*' });

const slackId = z.string().regex(/^[A-Z0-9]+$/, { message: 'must be a Slack id such as C0123ABCD or U0123ABCD' });

const networkPolicy = z.enum(['setup-only', 'on', 'off']);

/** A host, *.domain or host:port the egress proxy lets sandboxed steps with network reach (see docs/security.md). */
const egressAllowEntry = z.string().superRefine((text, ctx) => {
  try {
    parseAllowEntry(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** The operator's HTTP proxy (`http://user:password@proxy.corp:3128`, or `https://` spoken to over TLS), or empty: none. */
const upstreamProxyUrl = z.string().superRefine((text, ctx) => {
  if (text.trim() === '') return;
  try {
    parseUpstreamProxyUrl(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

const verificationCommands = z.object({
  test: z
    .string()
    .optional()
    .meta({ description: 'Overrides the detected test command; an empty string turns tests off.', unset: 'detected ([checks](checks.md))' }),
  lint: z.string().optional().meta({ description: 'Overrides the detected lint command; an empty string turns linting off.', unset: 'detected' }),
  coverage: z.string().optional().meta({ description: 'The command that measures test coverage (testing tasks).', unset: 'detected' }),
  setup: z.string().optional().meta({ description: 'The setup step (installs dependencies; the only step with network by default).', unset: 'detected' }),
  dependencyKeyFiles: z.array(treePattern).max(50).optional().meta({
    description: "Files or globs inside the tree added to the dependency cache's key (replaces `cache.dependencyKeyFiles` of the repository's `.wrench.yml`).",
    unset: 'the lock files',
  }),
  refresh: z
    .string()
    .optional()
    .meta({ description: 'Run on a dependency cache hit instead of the setup step (replaces `cache.refresh` of `.wrench.yml`; empty: none).', unset: 'none' }),
});

/**
 * What a channel works on: one repository (`repo`), or several (`repos`) — then each request's repository is picked from
 * its instruction (a repository or short name it names, a path or symbol only one of them has), or asked with buttons.
 */
const channelSchema = z
  .object({
    repo: repoName.optional().meta({ description: 'The repository (`owner/name`) this channel works on.', unset: 'give `repos` instead' }),
    repos: z.array(repoName).max(20, { message: 'must list at most 20 repositories' }).optional().meta({
      description:
        "The repositories this channel works on, when it has several (instead of `repo`): each request's is picked from its words (`acme/api`, `api`, a path or symbol only one has), else asked with buttons.",
      unset: 'give `repo` instead',
    }),
    baseBranch: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The branch runs start from (in each of the repositories).', unset: "the repository's default branch" }),
    monitoring: z.string().optional().meta({ description: 'A source under `monitoring:` whose evidence triage in this channel reads.', unset: 'none' }),
  })
  .strict()
  .superRefine((channel, context) => {
    if (channel.repo !== undefined && channel.repos !== undefined) {
      context.addIssue({ code: 'custom', path: ['repos'], message: 'give either repo (one repository) or repos (several), not both' });
    } else if (channel.repo === undefined && channel.repos === undefined) {
      context.addIssue({ code: 'custom', path: ['repo'], message: 'is missing: give repo (one repository) or repos (several)' });
    }
    if (channel.repos?.length === 0) context.addIssue({ code: 'custom', path: ['repos'], message: 'is empty: list at least one repository' });
    const seen = new Set<string>();
    for (const [index, repo] of (channel.repos ?? []).entries()) {
      if (seen.has(repo.toLowerCase())) context.addIssue({ code: 'custom', path: ['repos', index], message: `lists ${repo} twice` });
      seen.add(repo.toLowerCase());
    }
  });

export type ChannelConfig = z.infer<typeof channelSchema>;

/** The repositories (`owner/name`) a channel works on, in the configuration's order. */
export const channelRepositories = (channel: ChannelConfig | undefined): string[] => (channel ? (channel.repos ?? (channel.repo ? [channel.repo] : [])) : []);

/** Whether the channel works on `fullName` (owner/name, case-insensitive like GitHub). */
export const channelHasRepository = (channel: ChannelConfig | undefined, fullName: string): boolean =>
  channelRepositories(channel).some((repo) => repo.toLowerCase() === fullName.toLowerCase());

/** Recurring work from the file: each entry is a schedule like one made in Slack ([schedules](schedules.md)). */
const scheduleSchema = z
  .object({
    channel: slackId.meta({ description: 'The channel (id) whose repository each run works on and where each run gets its thread.' }),
    cron: z
      .string()
      .trim()
      .superRefine((pattern, ctx) => {
        const problem = cronProblem(pattern);
        if (problem) ctx.addIssue({ code: 'custom', message: `is not a cron pattern: ${problem}` });
      })
      .meta({ description: 'When it runs: a cron pattern of 5 fields (`0 9 * * 1`: Mondays at 09:00), or 6 with seconds first.' }),
    timezone: z
      .string()
      .default('UTC')
      .refine(isTimeZone, { message: 'must be an IANA time zone such as Europe/Berlin or UTC' })
      .meta({ description: 'The time zone the cron pattern is read in.' }),
    instruction: z.string().trim().min(1).max(20_000).meta({ description: 'What each run is asked, as if someone wrote it to @wrench.' }),
    repo: repoName.optional().meta({ description: 'The repository, when the channel has several.', unset: "the channel's one repository" }),
    owner: slackId
      .optional()
      .meta({ description: 'The Slack user the runs are asked for, who may also pause and resume the schedule from Slack.', unset: 'admins only' }),
  })
  .strict();

export type ConfigSchedule = z.infer<typeof scheduleSchema>;

export const configFileSchema = z
  .object({
    channels: z
      .record(slackId, channelSchema)
      .default({})
      .meta({ description: 'The repository (or repositories) each Slack channel works on, by channel id.', key: 'channel id' }),
    repos: z
      .array(repoGlob)
      .default([])
      .meta({ description: 'Repositories a message may name explicitly (`owner/name` globs such as `acme/*`); others are refused.' }),
    access: z
      .object({
        users: z.array(slackId).default([]).meta({ description: 'Slack user ids allowed to start work; empty: everyone in a configured channel.' }),
        approvers: z
          .array(slackId)
          .default([])
          .meta({ description: 'Who may press approve and revert buttons (and clear a draft that touched protected paths); empty: same as `users`.' }),
        admins: z.array(slackId).default([]).meta({ description: "Who sees every channel's runs and the week's spend in Wrench's App Home." }),
        directMessages: z.boolean().default(false).meta({ description: 'Work requested in direct messages to Wrench.' }),
        sharedChannels: z.boolean().default(false).meta({ description: 'Work requested in Slack Connect (shared) channels.' }),
        followUpWithoutMention: z
          .boolean()
          .default(false)
          .meta({ description: 'Replies in a Wrench thread start a follow-up run without mentioning @wrench.' }),
      })
      .strict()
      .default({ users: [], approvers: [], admins: [], directMessages: false, sharedChannels: false, followUpWithoutMention: false })
      .meta({ description: 'Who may ask Wrench for work and press its buttons ([security](security.md)).' }),
    pagerduty: z
      .object({
        services: z
          .record(
            z.string(),
            z
              .object({
                repo: repoName.meta({ description: 'The repository whose changes triage of this service reads.' }),
                channel: slackId.meta({ description: "The Slack channel where this service's incidents are triaged." }),
                monitoring: z
                  .string()
                  .optional()
                  .meta({ description: 'A source under `monitoring:` whose evidence triage of this service reads.', unset: 'none' }),
              })
              .strict(),
          )
          .default({})
          .meta({ description: 'PagerDuty services Wrench triages, by service id ([incident triage](incident-triage.md)).', key: 'service id' }),
        commitWindowHours: z.number().positive().default(24).meta({ description: 'Hours of history before the incident that triage looks at.' }),
      })
      .strict()
      .default({ services: {}, commitWindowHours: 24 })
      .meta({ description: 'Incident triage.' }),
    modelBudget: z
      .object({
        requestsPerMinute: z.number().int().min(0).default(0).meta({
          description:
            "Requests a minute to one model across every worker; `0`: what the API's `anthropic-ratelimit-requests-limit` header says (set: the lower of the two counts).",
        }),
        inputTokensPerMinute: z
          .number()
          .int()
          .min(0)
          .default(0)
          .meta({ description: "Uncached input and cache-write tokens a minute, as the API counts them; `0`: learnt from the API's headers." }),
        outputTokensPerMinute: z
          .number()
          .int()
          .min(0)
          .default(0)
          .meta({ description: "Output tokens a minute (`max_tokens` while a call runs, then the output it used); `0`: learnt from the API's headers." }),
        maxWaitSeconds: z.number().positive().default(600).meta({
          description: 'How long one model call may wait for the budget before it fails (the model reader: its own time limit, then the rules decide).',
        }),
      })
      .strict()
      .default({ requestsPerMinute: 0, inputTokensPerMinute: 0, outputTokensPerMinute: 0, maxWaitSeconds: 600 })
      .meta({
        description: 'One model rate budget per model for the whole fleet, shared through Redis ([scaling](scaling.md#one-model-budget-for-the-fleet)).',
      }),
    limits: z
      .object({
        concurrency: z.number().int().min(1).max(64).default(2).meta({ description: 'Jobs at once per worker process.' }),
        global: z.number().int().min(1).default(20).meta({ description: 'Jobs at once across all workers.' }),
        perRepository: z.number().int().min(1).default(2).meta({ description: 'Jobs at once on one repository, across all workers.' }),
        perUser: z.number().int().min(1).default(2).meta({ description: 'Jobs at once started by one person, across all workers.' }),
        minutes: z
          .object({
            simple: z.number().positive().default(15).meta({ description: 'Minutes a simple task may run.' }),
            medium: z.number().positive().default(45).meta({ description: 'Minutes a medium task may run.' }),
            complex: z.number().positive().default(90).meta({ description: 'Minutes a complex task may run.' }),
          })
          .strict()
          .default({ simple: 15, medium: 45, complex: 90 })
          .meta({ description: 'Wall-clock budget per complexity class, in minutes.' }),
        costUsd: z.number().positive().default(5).meta({ description: 'A run stops when its model calls cost this much (US dollars).' }),
        steps: z.number().int().positive().default(80).meta({ description: 'Agent steps per run.' }),
        answers: z
          .object({
            steps: z.number().int().positive().default(30).meta({ description: 'Agent steps for one question.' }),
            minutes: z.number().positive().default(10).meta({ description: 'Minutes one question may run.' }),
            costUsd: z.number().positive().default(1).meta({ description: 'A question stops when its model calls cost this much (US dollars).' }),
          })
          .strict()
          .default({ steps: 30, minutes: 10, costUsd: 1 })
          .meta({
            description: 'A question about the code, answered read-only (docs/questions.md): its own smaller budget, each figure within the limits above.',
          }),
        tokens: z
          .number()
          .int()
          .positive()
          .default(20_000_000)
          .meta({ description: 'Tokens per run (input, output, cache reads and writes together) before the agent is stopped: a ceiling under the cost cap.' }),
        questionTimeoutHours: z
          .number()
          .positive()
          .max(24 * 30)
          .default(24)
          .meta({ description: "How long a run paused on the agent's question waits for the requester's answer before it ends with what it has." }),
        silenceMarginMinutes: z.number().min(0).default(15).meta({
          description:
            "The run watchdog's margin: a run whose thread has had no last word (its result, or a message saying what happened) this many minutes past its time limit (`minutes` of its complexity, counted from when a worker last started it) is said to be silent in its thread, once ([durability](durability.md#a-run-killed-under-it-too-often-and-a-run-that-never-says-its-last-word-the-watchdog)).",
        }),
      })
      .strict()
      .default({
        concurrency: 2,
        global: 20,
        perRepository: 2,
        perUser: 2,
        minutes: { simple: 15, medium: 45, complex: 90 },
        costUsd: 5,
        steps: 80,
        answers: { steps: 30, minutes: 10, costUsd: 1 },
        tokens: 20_000_000,
        questionTimeoutHours: 24,
        silenceMarginMinutes: 15,
      })
      .meta({ description: 'How much runs may do, at once and each.' }),
    sandbox: z
      .object({
        mode: z
          .enum(['bwrap', 'none'])
          .default('bwrap')
          .meta({ description: 'How commands are isolated: bubblewrap, or `none` (no isolation; must be chosen explicitly and is logged on every job).' }),
        network: networkPolicy
          .default('setup-only')
          .meta({ description: 'Network for sandboxed commands: `setup-only` (dependency installation has it, the agent does not), `on` or `off`.' }),
        networkByCategory: z
          .partialRecord(z.enum(CATEGORIES), networkPolicy)
          .default({ 'web-scraping': 'on' })
          .meta({ description: 'The network policy of one task category, over `sandbox.network`.' }),
        egress: z
          .object({
            allow: z
              .array(egressAllowEntry)
              .default([])
              .meta({ description: 'Hosts (`host`, `*.domain` or `host:port`) the setup step may reach besides the package registries.' }),
            upstreamProxy: upstreamProxyUrl.optional().meta({
              description:
                "The operator's HTTP proxy (`http://user:password@proxy.corp:3128`, or `https://…` for one spoken to over TLS, its certificate checked against the public CAs and `sandbox.setupCaFile`; other schemes are refused) the egress proxy sends allowed destinations through, where only it reaches the internet: `CONNECT` tunnels are chained to it, plain-HTTP requests forwarded, its credentials sent only to it (masked in logs, never in a bwrap sandbox; in mode `none`, where there is no egress proxy, commands with network get its URL in their proxy variables). The allow list and the address checks still come first. Empty: connect directly ([security](security.md#an-upstream-proxy)).",
              unset: "Wrench's own `HTTPS_PROXY`, else `HTTP_PROXY`",
            }),
            noProxy: z.array(z.string().trim().min(1)).optional().meta({
              description:
                'Destinations that skip the upstream proxy and are connected to directly: `*`, `host`, `.domain` (and its subdomains), `host:port`, an IP address or a CIDR range, matched on the name asked for.',
              unset: "Wrench's own `NO_PROXY`",
            }),
            upstreamResolvesNames: z.boolean().optional().meta({
              description:
                "Where only the upstream proxy resolves public names: an allowed name Wrench's host cannot resolve is asked of the upstream unchecked, so the upstream's own policy alone decides where it leads (a name that resolves is checked as always).",
              unset: 'off: such a name fails (`502 could not resolve`)',
            }),
          })
          .strict()
          .default({ allow: [] })
          .meta({ description: 'What the egress proxy lets through ([security](security.md)).' }),
        hidden: z
          .array(z.string().refine((dir) => dir.startsWith('/'), { message: 'must be an absolute path' }))
          .default([])
          .meta({ description: 'More host paths (absolute) no sandboxed command sees, besides the defaults.' }),
        visible: z
          .array(
            z
              .string()
              .refine((dir) => dir.startsWith('/'), { message: 'must be an absolute path' })
              .refine((dir) => dir.replace(/\/+$/, '') !== '', { message: 'must not be / (that would show every host socket again)' }),
          )
          .default([])
          .meta({
            description:
              "Host directories (absolute) commands may read, bound read-only, besides the system ones (`/usr`, `/bin`, `/sbin`, `/lib*`, `/etc`, `/opt`, `/sys`): a toolchain under `/nix`, say. Nothing else of the host is in a command's root ([security](security.md#host-sockets)).",
          }),
        setupCaFile: z
          .string()
          .refine((file) => file.startsWith('/'), { message: 'must be an absolute path' })
          .optional()
          .meta({
            description:
              "A CA bundle (PEM, absolute path) the setup step trusts, for a TLS-intercepting proxy: shown read-only to commands with network and named by `NODE_EXTRA_CA_CERTS`, `npm_config_cafile`, `PIP_CERT`, `REQUESTS_CA_BUNDLE`, `GIT_SSL_CAINFO` and `CURL_CA_BUNDLE` (all but Node.js's replace the public CAs: give a bundle that holds them too unless every connection passes the proxy). The host npm's own `cafile` is passed on without it. Wrench also trusts it, besides the public CAs, for the certificate of an `https://` upstream proxy (`sandbox.egress.upstreamProxy`).",
            unset: "the host's",
          }),
      })
      .strict()
      .default({ mode: 'bwrap', network: 'setup-only', networkByCategory: { 'web-scraping': 'on' }, egress: { allow: [] }, hidden: [], visible: [] })
      .meta({ description: "Where the agent's and the checks' commands run ([security](security.md))." }),
    verification: z
      .record(repoName, verificationCommands)
      .default({})
      .meta({ description: "A repository's check commands, over its `.wrench.yml`, its CI workflow and detection ([checks](checks.md)).", key: 'owner/name' }),
    cache: z
      .object({
        baseline: z.boolean().default(true).meta({ description: 'Test and lint results on a base commit are kept and reused by the next job on that commit.' }),
        dependencies: z
          .boolean()
          .default(true)
          .meta({ description: 'What the setup step installed is kept per lock file and restored instead of installing again.' }),
        trees: z
          .boolean()
          .default(true)
          .meta({ description: 'Checked-out working trees are kept per repository and reused by the next job instead of a fresh clone.' }),
        downloads: z.boolean().default(true).meta({
          description:
            "Package managers' download caches (npm, yarn, pnpm, pip, Go modules) shared by the setup steps of one repository's jobs (never the agent's).",
        }),
        treesPerRepository: z
          .number()
          .int()
          .min(1)
          .max(32)
          .default(8)
          .meta({ description: 'The most working trees kept per repository (the pool grows with the jobs that run at once); beyond, a throw-away clone.' }),
        maxAgeDays: z.number().positive().default(14).meta({ description: 'Entries unused for this many days are removed.' }),
        setupFailureMinutes: z.number().min(0).default(15).meta({
          description:
            'A setup step that failed is not run again on the same dependency key (lock files, setup command, runtimes) for this many minutes: later jobs say its failure at once, with its command and last lines; `0`: always run it.',
        }),
        maxSizeGb: z
          .object({
            trees: z.number().positive().default(20).meta({ description: 'Disk cap of the working trees, GB.' }),
            dependencies: z.number().positive().default(10).meta({ description: 'Disk cap of the dependency snapshots, GB.' }),
            baselines: z.number().positive().default(1).meta({ description: 'Disk cap of the baselines, GB.' }),
            downloads: z.number().positive().default(10).meta({ description: "Disk cap of the package managers' download caches, GB." }),
          })
          .strict()
          .default({ trees: 20, dependencies: 10, baselines: 1, downloads: 10 })
          .meta({ description: 'Disk cap of each cache: beyond it, the least recently used entries are removed.' }),
      })
      .strict()
      .default({
        baseline: true,
        dependencies: true,
        trees: true,
        downloads: true,
        treesPerRepository: 8,
        maxAgeDays: 14,
        setupFailureMinutes: 15,
        maxSizeGb: { trees: 20, dependencies: 10, baselines: 1, downloads: 10 },
      })
      .meta({ description: 'Warm starts, kept on each machine under `WRENCH_DATA_DIR/cache` ([warm starts](warm-starts.md)).' }),
    slack: z
      .object({
        streamRuns: z.boolean().default(true).meta({
          description:
            'A run reports as one message with its plan: streamed where the workspace allows it, an ordinary message of the same shape where Slack refuses streams; the status card and replies for runs asked on GitHub, and everywhere when `false` ([Slack front door](front-doors.md#slack)).',
        }),
      })
      .strict()
      .default({ streamRuns: true })
      .meta({ description: 'How runs show in Slack.' }),
    review: z
      .object({ githubReview: z.boolean().default(false).meta({ description: 'Code reviews are also posted as GitHub reviews with inline comments.' }) })
      .strict()
      .default({ githubReview: false })
      .meta({ description: 'Code review tasks ([task categories](task-categories.md)).' }),
    protectedPaths: z
      .array(z.string())
      .default(['.github/workflows/**'])
      .meta({ description: 'Globs of paths whose change makes the pull request a draft an approver must clear.' }),
    github: z
      .object({
        fixFailingChecks: z.boolean().default(true).meta({ description: 'A failing check on a Wrench pull request gets a bounded fix round.' }),
        maxFixRounds: z.number().int().min(0).max(10).default(2).meta({ description: 'Fix rounds per pull request, at most.' }),
        issueLabel: z
          .string()
          .trim()
          .max(50)
          .default('wrench')
          .meta({ description: "An issue given this label (in a repository linked to a channel) starts a run whose pull request closes it; `''`: off." }),
        mention: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9-]+$/, { message: 'must be a GitHub login or App slug, without @' })
          .optional()
          .meta({
            description:
              "The name people write after @ to ask Wrench on any open pull request of a linked repository (the App's slug, or the machine user's login).",
            unset: 'Wrench answers only on pull requests it opened',
          }),
        issueAssignee: z
          .string()
          .trim()
          .min(1)
          .optional()
          .meta({ description: "An issue assigned to this account (Wrench's machine user, or `<app-slug>[bot]`) starts such a run too.", unset: 'off' }),
      })
      .strict()
      .default({ fixFailingChecks: true, maxFixRounds: 2, issueLabel: 'wrench' })
      .meta({ description: 'The GitHub front door (`GITHUB_WEBHOOK_SECRET`, [GitHub App](github-app.md)).' }),
    git: z
      .object({
        name: z
          .string()
          .trim()
          .min(1)
          .refine((name) => !/[<>\n]/.test(name), { message: 'must not hold <, > or a line break' })
          .default(WRENCH_IDENTITY.name)
          .meta({ description: 'Author and committer name of every commit Wrench pushes.' }),
        email: z
          .email({ message: 'must be an email address, for example wrench@users.noreply.github.com' })
          .default(WRENCH_IDENTITY.email)
          .meta({ description: 'Author and committer email of every commit Wrench pushes.' }),
      })
      .strict()
      .default({ ...WRENCH_IDENTITY })
      .meta({ description: 'The identity of every commit Wrench pushes (each pushed commit is re-created with it; [security](security.md)).' }),
    schedules: z
      .array(scheduleSchema)
      .max(200, { message: 'must list at most 200 schedules' })
      .default([])
      .meta({ description: 'Recurring work run on a cron pattern, besides the schedules made in Slack ([schedules](schedules.md)).' }),
    monitoring: z.record(z.string(), monitoringSourceSchema).default({}).meta({
      description:
        'Evidence sources for triage, by name; channels and PagerDuty services refer to one with `monitoring: NAME` ([incident triage](incident-triage.md)).',
      key: 'source',
    }),
  })
  .strict()
  .superRefine((config, context) => {
    const references = [
      ...Object.entries(config.channels).map(([id, channel]) => [['channels', id, 'monitoring'], channel.monitoring] as const),
      ...Object.entries(config.pagerduty.services).map(([id, service]) => [['pagerduty', 'services', id, 'monitoring'], service.monitoring] as const),
    ];
    for (const [index, schedule] of config.schedules.entries()) {
      const channel = config.channels[schedule.channel];
      const repositories = channelRepositories(channel);
      if (!channel) context.addIssue({ code: 'custom', path: ['schedules', index, 'channel'], message: 'names a channel not under channels:' });
      else if (schedule.repo && !channelHasRepository(channel, schedule.repo))
        context.addIssue({
          code: 'custom',
          path: ['schedules', index, 'repo'],
          message: `is not one of the channel's repositories (${repositories.join(', ')})`,
        });
      else if (!schedule.repo && repositories.length > 1)
        context.addIssue({
          code: 'custom',
          path: ['schedules', index, 'repo'],
          message: `is missing: the channel has several repositories (${repositories.join(', ')})`,
        });
    }
    for (const [path, name] of references) {
      if (name !== undefined && !(name in config.monitoring)) {
        context.addIssue({ code: 'custom', path: [...path], message: `names no source under monitoring: (add monitoring.${name} or fix the name)` });
      }
    }
  });

export type ConfigFile = z.infer<typeof configFileSchema>;
