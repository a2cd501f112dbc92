import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { WrenchError } from '../errors.js';
import { treePattern } from '../config/tree-pattern.js';
import type { RepoFiles } from './repo-files.js';

/** The file in a repository's root that tells Wrench how to set it up and check it. */
export const REPOSITORY_CHECKS_FILE = '.wrench.yml';

const command = z.string().trim().min(1, { message: 'must not be empty' }).max(2000);
const commands = z.union([command, z.array(command).min(1).max(20)], { message: 'must be a command or a list of commands' });
const version = z.union([z.string().trim().min(1).max(40), z.number()], { message: 'must be a version such as "18" or "3.12"' }).transform(String);
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const variables = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()], { message: 'must be a plain value' }).transform(String))
  .refine((env) => Object.keys(env).every((name) => VARIABLE_NAME.test(name)), { message: 'names must be variable names (letters, digits and _)' });

const schema = z
  .object({
    /** Install commands, run with network before the checks (one string, or a list run in order). */
    setup: commands.optional(),
    checks: z.object({ test: commands.optional(), lint: commands.optional(), coverage: command.optional() }).strict().optional(),
    /** Variables every setup step and check gets (plain values; never put secrets here). */
    env: variables.optional(),
    /** The runtime versions to check on, e.g. `node: "18"`, `python: "3.11"`. */
    runtime: z.object({ node: version.optional(), python: version.optional() }).strict().optional(),
    /** Keeping restored dependencies current: files added to the dependency key, a command run when they are restored. */
    cache: z
      .object({
        dependencyKeyFiles: z.array(treePattern).min(1).max(50).optional(),
        refresh: commands.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export interface RepositoryChecks {
  setup?: string;
  test?: string;
  lint?: string;
  coverage?: string;
  env: Record<string, string>;
  runtime: { node?: string; python?: string };
  dependencyKeyFiles?: string[];
  refresh?: string;
}

/**
 * `.wrench.yml` of the repository, or undefined when it has none. Content that does not fit the shape throws
 * `repository_checks_invalid` naming each bad entry.
 */
export async function readRepositoryChecks(files: RepoFiles): Promise<RepositoryChecks | undefined> {
  const text = await files.read(REPOSITORY_CHECKS_FILE);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw invalid(`it is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the file'}: ${issue.message}`);
    throw invalid(problems.join('; '));
  }
  const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(' && ') : value);
  const { setup, checks, env, runtime, cache } = parsed.data;
  return {
    setup: joined(setup),
    test: joined(checks?.test),
    lint: joined(checks?.lint),
    coverage: checks?.coverage,
    env: env ?? {},
    runtime: runtime ?? {},
    dependencyKeyFiles: cache?.dependencyKeyFiles,
    refresh: joined(cache?.refresh),
  };
}

function invalid(problem: string): WrenchError {
  return new WrenchError('repository_checks_invalid', `${REPOSITORY_CHECKS_FILE} was not used: ${problem}.`);
}
