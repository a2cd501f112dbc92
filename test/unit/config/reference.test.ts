import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { configFileSchema } from '../../../src/config/config-file.js';
import { envSchema } from '../../../src/config/env-options.js';
import { configReference, envReference, undescribedOptions, withGeneratedSections } from '../../../src/config/reference.js';

const ROOT = path.join(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const REGENERATE = 'run `npm run docs:generate` and commit docs/configuration.md';

/** The example with its commented-out keys (`# mention: wrench-app`) put back, so they count as written. */
function exampleConfig(): unknown {
  return parseYaml(read('wrench.config.example.yml').replace(/^([ \t]*)# ?([ \t]*(?:- )?[A-Za-z0-9][\w/.-]*:(?:[ \t].*)?)$/gm, '$1$2'));
}

/** Every key path of a parsed YAML document, as lists of keys. */
function keyPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  // A list of sections (`schedules:`): its entries' keys are written `schedules[].cron`.
  const inner = (key: string, child: unknown) =>
    Array.isArray(child) ? child.flatMap((item) => keyPaths(item, [...prefix, `${key}[]`])) : keyPaths(child, [...prefix, key]);
  return Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...inner(key, child)]);
}

/** `channels.<channel id>.repo` matches `channels.C0123ABCD.repo`: a `<…>` part is any key. */
const matches = (name: string, keys: string[]) => {
  const parts = name.match(/<[^>]+>|[^.]+/g) ?? [];
  return parts.length === keys.length && parts.every((part, index) => part.startsWith('<') || part === keys[index]);
};

describe('the configuration reference (docs/configuration.md) is generated from the schemas', () => {
  it('the committed page is what the schemas generate', () => {
    const committed = read('docs/configuration.md');
    expect(committed, `docs/configuration.md differs from what src/config's schemas generate: ${REGENERATE}`).toBe(withGeneratedSections(committed));
  });

  it('every environment variable and every key has a description in its schema', () => {
    expect(undescribedOptions(), `these options have no description: give each \`.meta({ description: '…' })\` in src/config, then ${REGENERATE}`).toEqual([]);
  });

  it('lists every variable of the environment schema and every key of the file, with its type and default', () => {
    expect(envReference().map((entry) => entry.name)).toEqual(Object.keys(envSchema.shape));
    const env = Object.fromEntries(envReference().map((entry) => [entry.name, entry]));
    expect(env.WRENCH_READER_TIMEOUT_MS).toMatchObject({ type: 'integer (≥ 100, ≤ 30000)', default: '`4000`' });
    expect(env.REDIS_URL?.default).toMatch(/embedded `redis-server`/);
    const file = Object.fromEntries(configReference().map((entry) => [entry.name, entry]));
    expect(Object.keys(file)).toEqual(expect.arrayContaining(Object.keys(configFileSchema.shape)));
    expect(file['limits.concurrency']).toMatchObject({ type: 'integer (≥ 1, ≤ 64)', default: '`2`' });
    expect(file['pagerduty.services.<service id>.repo']).toMatchObject({ default: 'required' });
    expect(file['channels.<channel id>.repos']).toMatchObject({ type: 'list of strings', default: 'give `repo` instead' });
    expect(file['sandbox.mode']).toMatchObject({ type: '`bwrap` \\| `none`', default: '`bwrap`' });
    expect(file['monitoring.<source>.mcpServers.<server>.url']?.description).toBeTruthy();
  });

  it('an option added without a description is caught', () => {
    const extended = envSchema.extend({ WRENCH_SOMETHING_NEW: z.string().optional() });
    const properties = z.toJSONSchema(extended, { io: 'input', unrepresentable: 'any' }).properties as Record<string, { description?: string }>;
    expect(properties.WRENCH_SOMETHING_NEW?.description).toBeUndefined();
    expect(properties.WRENCH_MODEL?.description).toBeTruthy();
  });
});

describe('the examples name every option', () => {
  it('.env.example names every environment variable Wrench reads', () => {
    const named = new Set([...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    expect(
      Object.keys(envSchema.shape).filter((name) => !named.has(name)),
      'add these to .env.example (commented out when an empty line would override a default)',
    ).toEqual([]);
  });

  it('wrench.config.example.yml writes every key (commented out where the default is off), and is a valid configuration', () => {
    const example = exampleConfig();
    const written = keyPaths(example);
    const missing = configReference()
      .map((entry) => entry.name)
      .filter((name) => !written.some((keys) => matches(name, keys)));
    expect(missing, 'add these keys to wrench.config.example.yml').toEqual([]);
    expect(configFileSchema.safeParse(example).error?.issues ?? []).toEqual([]);
  });
});
