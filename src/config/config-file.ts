import { z } from 'zod';
import { CATEGORIES } from '../categories.js';
import { monitoringSourceSchema } from './monitoring-source.js';
import { parseAllowEntry } from '../sandbox/egress/egress-policy.js';
import { treePattern } from './tree-pattern.js';
import { WRENCH_IDENTITY } from '../workspace/git-identity.js';

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

const verificationCommands = z.object({
  /** Overrides the detected test command; an empty string turns tests off. */
  test: z.string().optional(),
  lint: z.string().optional(),
  coverage: z.string().optional(),
  setup: z.string().optional(),
  /** Files or globs inside the tree added to the dependency key (replaces `cache.dependencyKeyFiles` of the repository's `.wrench.yml`). */
  dependencyKeyFiles: z.array(treePattern).max(50).optional(),
  /** Run on a dependency cache hit instead of the setup step (replaces `cache.refresh` of `.wrench.yml`; empty: none). */
  refresh: z.string().optional(),
});

export const configFileSchema = z
  .object({
    channels: z.record(slackId, z.object({ repo: repoName, baseBranch: z.string().min(1).optional(), monitoring: z.string().optional() }).strict()).default({}),
    repos: z.array(repoGlob).default([]),
    access: z
      .object({
        users: z.array(slackId).default([]),
        approvers: z.array(slackId).default([]),
        /** Who sees every channel's runs and spend of the week in Wrench's App Home. */
        admins: z.array(slackId).default([]),
        /** Direct messages to Wrench. Off by default. */
        directMessages: z.boolean().default(false),
        /** Slack Connect (shared) channels. Off by default. */
        sharedChannels: z.boolean().default(false),
        /** Replies in a Wrench thread start a follow-up run without mentioning @wrench. */
        followUpWithoutMention: z.boolean().default(false),
      })
      .strict()
      .default({ users: [], approvers: [], admins: [], directMessages: false, sharedChannels: false, followUpWithoutMention: false }),
    pagerduty: z
      .object({
        services: z.record(z.string(), z.object({ repo: repoName, channel: slackId, monitoring: z.string().optional() }).strict()).default({}),
        /** Hours of history before the incident that triage looks at. */
        commitWindowHours: z.number().positive().default(24),
      })
      .strict()
      .default({ services: {}, commitWindowHours: 24 }),
    /**
     * One model rate budget for the fleet, shared through Redis (src/agent/model-budget.ts), per model: 0 leaves a limit
     * to what the API's anthropic-ratelimit-* headers say; where both are known the lower counts.
     */
    modelBudget: z
      .object({
        requestsPerMinute: z.number().int().min(0).default(0),
        inputTokensPerMinute: z.number().int().min(0).default(0),
        outputTokensPerMinute: z.number().int().min(0).default(0),
        /** How long one model call may wait for the budget before it fails. */
        maxWaitSeconds: z.number().positive().default(600),
      })
      .strict()
      .default({ requestsPerMinute: 0, inputTokensPerMinute: 0, outputTokensPerMinute: 0, maxWaitSeconds: 600 }),
    limits: z
      .object({
        /** Jobs at once per worker process. */
        concurrency: z.number().int().min(1).max(64).default(2),
        /** Jobs at once across all workers. */
        global: z.number().int().min(1).default(20),
        /** Jobs at once on one repository, across all workers. */
        perRepository: z.number().int().min(1).default(2),
        /** Jobs at once started by one person, across all workers. */
        perUser: z.number().int().min(1).default(2),
        /** Wall-clock budget per complexity class, in minutes. */
        minutes: z
          .object({ simple: z.number().positive().default(15), medium: z.number().positive().default(45), complex: z.number().positive().default(90) })
          .strict()
          .default({ simple: 15, medium: 45, complex: 90 }),
        /** Cost cap per run in US dollars. */
        costUsd: z.number().positive().default(5),
        /** Agent steps per run. */
        steps: z.number().int().positive().default(80),
        /** Tokens per run (input, output, cache reads and writes together) before the agent is stopped: a ceiling under the cost cap. */
        tokens: z.number().int().positive().default(20_000_000),
        /** How long a run paused on the agent's question waits for the requester's answer before it ends with what it has. */
        questionTimeoutHours: z
          .number()
          .positive()
          .max(24 * 30)
          .default(24),
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
        tokens: 20_000_000,
        questionTimeoutHours: 24,
      }),
    sandbox: z
      .object({
        mode: z.enum(['bwrap', 'none']).default('bwrap'),
        network: networkPolicy.default('setup-only'),
        networkByCategory: z.partialRecord(z.enum(CATEGORIES), networkPolicy).default({ 'web-scraping': 'on' }),
        egress: z
          .object({
            /** Hosts the setup step may reach besides the default registries and the host's own registry settings. */
            allow: z.array(egressAllowEntry).default([]),
          })
          .strict()
          .default({ allow: [] }),
        /** More host paths no sandboxed command sees (absolute), besides the defaults. */
        hidden: z.array(z.string().refine((dir) => dir.startsWith('/'), { message: 'must be an absolute path' })).default([]),
      })
      .strict()
      .default({ mode: 'bwrap', network: 'setup-only', networkByCategory: { 'web-scraping': 'on' }, egress: { allow: [] }, hidden: [] }),
    verification: z.record(repoName, verificationCommands).default({}),
    cache: z
      .object({
        /** Test and lint results on a base commit are kept and reused by the next job on that commit. */
        baseline: z.boolean().default(true),
        /** What the setup step installed is kept per lock file and restored instead of installing again. */
        dependencies: z.boolean().default(true),
        /** Checked-out working trees are kept per repository and reused by the next job instead of a fresh clone. */
        trees: z.boolean().default(true),
        /** Package managers' download caches (npm, yarn, pnpm, pip, Go modules) shared by the setup steps of one repository's jobs. */
        downloads: z.boolean().default(true),
        /**
         * The most working trees kept per repository: a new one is cloned only when every tree is in use and none is
         * being readied for the next job, so the pool grows with the jobs that run at once, up to this.
         */
        treesPerRepository: z.number().int().min(1).max(32).default(8),
        /** Entries unused for this many days are removed. */
        maxAgeDays: z.number().positive().default(14),
        /** Disk cap of each cache in GB: beyond it, the least recently used entries are removed. */
        maxSizeGb: z
          .object({
            trees: z.number().positive().default(20),
            dependencies: z.number().positive().default(10),
            baselines: z.number().positive().default(1),
            downloads: z.number().positive().default(10),
          })
          .strict()
          .default({ trees: 20, dependencies: 10, baselines: 1, downloads: 10 }),
      })
      .strict()
      .default({
        baseline: true,
        dependencies: true,
        trees: true,
        downloads: true,
        treesPerRepository: 8,
        maxAgeDays: 14,
        maxSizeGb: { trees: 20, dependencies: 10, baselines: 1, downloads: 10 },
      }),
    slack: z
      .object({
        /**
         * A run reports as one streamed message with its plan (chat.startStream) where the workspace allows it (on by
         * default); the card where Slack refused streams (remembered per workspace), for runs asked on GitHub, and
         * everywhere when false.
         */
        streamRuns: z.boolean().default(true),
      })
      .strict()
      .default({ streamRuns: true }),
    review: z
      .object({ githubReview: z.boolean().default(false) })
      .strict()
      .default({ githubReview: false }),
    protectedPaths: z.array(z.string()).default(['.github/workflows/**']),
    github: z
      .object({
        /** A failing check on a Wrench pull request gets a bounded fix round. */
        fixFailingChecks: z.boolean().default(true),
        /** Fix rounds per pull request, at most. */
        maxFixRounds: z.number().int().min(0).max(10).default(2),
        /** An issue given this label (in a repository linked to a channel) starts a run whose pull request closes it; empty: off. */
        issueLabel: z.string().trim().max(50).default('wrench'),
        /**
         * The name people write after @ to ask Wrench on any pull request of a linked repository (the App's slug, or the
         * machine user's login); unset: Wrench answers only on pull requests it opened.
         */
        mention: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9-]+$/, { message: 'must be a GitHub login or App slug, without @' })
          .optional(),
        /** An issue assigned to this account (Wrench's machine user, or `<app-slug>[bot]`) starts such a run too. */
        issueAssignee: z.string().trim().min(1).optional(),
      })
      .strict()
      .default({ fixFailingChecks: true, maxFixRounds: 2, issueLabel: 'wrench' }),
    /** Author and committer of every commit Wrench pushes (each pushed commit is re-created with it). */
    git: z
      .object({
        name: z
          .string()
          .trim()
          .min(1)
          .refine((name) => !/[<>\n]/.test(name), { message: 'must not hold <, > or a line break' })
          .default(WRENCH_IDENTITY.name),
        email: z.email({ message: 'must be an email address, for example wrench@users.noreply.github.com' }).default(WRENCH_IDENTITY.email),
      })
      .strict()
      .default({ ...WRENCH_IDENTITY }),
    /** Evidence sources for triage, by name; channels and PagerDuty services refer to one with `monitoring: NAME`. */
    monitoring: z.record(z.string(), monitoringSourceSchema).default({}),
  })
  .strict()
  .superRefine((config, context) => {
    const references = [
      ...Object.entries(config.channels).map(([id, channel]) => [['channels', id, 'monitoring'], channel.monitoring] as const),
      ...Object.entries(config.pagerduty.services).map(([id, service]) => [['pagerduty', 'services', id, 'monitoring'], service.monitoring] as const),
    ];
    for (const [path, name] of references) {
      if (name !== undefined && !(name in config.monitoring)) {
        context.addIssue({ code: 'custom', path: [...path], message: `names no source under monitoring: (add monitoring.${name} or fix the name)` });
      }
    }
  });

export type ConfigFile = z.infer<typeof configFileSchema>;
