import { z } from 'zod';
import { configFileSchema } from './config-file.js';
import { envSchema } from './env-options.js';

/**
 * The configuration reference, written from the schemas that validate the environment and wrench.config.yml: each
 * option's name, type and default come from its zod schema, its words from the schema's `.meta({ description, unset })`
 * (`unset`: what leaving an option without a default unset means). `npm run docs:generate` writes it into
 * docs/configuration.md between the markers; a unit test fails when the committed page differs.
 */

export interface ReferenceEntry {
  /** `WRENCH_MODEL`, or a key path of wrench.config.yml: `limits.costUsd`, `channels.<channel id>.repo`. */
  name: string;
  type: string;
  /** The default as written in YAML or the environment, or what unset means; '' when there is none to say. */
  default: string;
  description: string | undefined;
}

/** A JSON Schema node as zod writes it (input side), with Wrench's `unset` and `key` meta. */
interface Node {
  type?: string;
  description?: string;
  unset?: string;
  /** For a map: what its keys are, e.g. `channel id`. */
  key?: string;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  propertyNames?: Node;
  items?: Node;
  anyOf?: Node[];
}

const jsonSchema = (schema: z.ZodType): Node => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Node;

export function envReference(): ReferenceEntry[] {
  const properties = jsonSchema(envSchema).properties ?? {};
  return Object.entries(properties).map(([name, node]) => ({
    name,
    type: typeOf(node),
    default: node.default !== undefined ? code(String(node.default)) : (node.unset ?? 'unset'),
    description: node.description,
  }));
}

export function configReference(): ReferenceEntry[] {
  const entries: ReferenceEntry[] = [];
  walk(jsonSchema(configFileSchema), '', entries);
  return entries;
}

/** The keys of a section (of each of its variants, for a union), each followed by its own keys. */
function walk(node: Node, prefix: string, into: ReferenceEntry[]): void {
  const variants = node.anyOf ?? [node];
  const seen = new Set(into.map((entry) => entry.name));
  for (const variant of variants) {
    for (const [key, child] of Object.entries(variant.properties ?? {})) {
      const name = prefix ? `${prefix}.${key}` : key;
      const isRequired = variant.required?.includes(key) ?? false;
      if (!seen.has(name)) {
        seen.add(name);
        into.push({ name, type: typeOf(child), default: configDefault(child, isRequired), description: child.description });
      }
      walkChildren(child, name, into);
    }
  }
}

function walkChildren(node: Node, name: string, into: ReferenceEntry[]): void {
  if (node.properties || node.anyOf?.some((variant) => variant.properties)) walk(node, name, into);
  else if (isMapOfObjects(node)) walk(node.additionalProperties as Node, `${name}.<${node.key ?? 'name'}>`, into);
  else if (node.type === 'array' && node.items?.properties) walk(node.items, `${name}[]`, into);
}

function isMapOfObjects(node: Node): boolean {
  const values = node.additionalProperties;
  return typeof values === 'object' && (!!values.properties || !!values.anyOf?.some((variant) => variant.properties));
}

function configDefault(node: Node, required: boolean): string {
  if (required) return 'required';
  if (node.unset) return node.unset;
  if (node.default === undefined) return 'unset';
  if (node.type === 'object' && node.properties) return '';
  if (node.default === '') return "`''`";
  return code(typeof node.default === 'string' ? node.default : JSON.stringify(node.default));
}

function typeOf(node: Node): string {
  if (node.anyOf?.every((variant) => variant.type === 'object')) return 'map';
  if (node.enum) return node.enum.map((value) => code(String(value))).join(' \\| ');
  switch (node.type) {
    case 'integer':
    case 'number':
      return `${node.type === 'integer' ? 'integer' : 'number'}${bounds(node)}`;
    case 'boolean':
      return '`true` \\| `false`';
    case 'string':
      if (node.format === 'uri') return 'URL';
      if (node.format === 'email') return 'email address';
      return 'string';
    case 'array':
      return `list of ${plural(node.items ? typeOf(node.items) : 'value')}`;
    case 'object':
      if (node.properties) return 'section';
      if (typeof node.additionalProperties === 'object') {
        const keys = node.propertyNames?.enum ? node.propertyNames.enum.map((value) => code(String(value))).join(', ') : (node.key ?? 'name');
        return isMapOfObjects(node) ? `map of ${keys} → section` : `map of ${keys} → ${typeOf(node.additionalProperties)}`;
      }
      return 'section';
    default:
      return 'value';
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function bounds(node: Node): string {
  const low = node.exclusiveMinimum !== undefined ? `> ${node.exclusiveMinimum}` : node.minimum !== undefined ? `≥ ${node.minimum}` : '';
  const high = node.maximum !== undefined && node.maximum < MAX_SAFE ? `≤ ${node.maximum}` : '';
  return low || high ? ` (${[low, high].filter(Boolean).join(', ')})` : '';
}

const plural = (type: string) => (type === 'string' ? 'strings' : type);
const code = (text: string) => `\`${text}\``;

/** Every option, environment or file, that has no description in its schema. */
export function undescribedOptions(): string[] {
  return [...envReference(), ...configReference()].filter((entry) => !entry.description?.trim()).map((entry) => entry.name);
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(entries: ReferenceEntry[], heading: string): string {
  const rows = entries.map((entry) => `| \`${entry.name}\` | ${entry.type} | ${cell(entry.default) || '—'} | ${cell(entry.description ?? '')} |`);
  return [`| ${heading} | type | default | what it does |`, '| --- | --- | --- | --- |', ...rows].join('\n');
}

export const REFERENCE_SECTIONS = {
  env: () => table(envReference(), 'variable'),
  config: () => table(configReference(), 'key'),
} as const;

/** `text` with what lies between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` replaced by each section. */
export function withGeneratedSections(text: string): string {
  let result = text;
  for (const [name, render] of Object.entries(REFERENCE_SECTIONS)) {
    const start = `<!-- generated:${name} (npm run docs:generate writes this from src/config; do not edit by hand) -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = result.indexOf(start);
    const to = result.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/configuration.md lacks the markers ${start} … ${end}`);
    result = `${result.slice(0, from + start.length)}\n${render()}\n${result.slice(to)}`;
  }
  return result;
}
