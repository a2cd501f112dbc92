import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

interface Kustomization {
  resources: string[];
  labels?: Array<{ pairs: Record<string, string> }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  configMapGenerator?: Array<{ name: string; envs?: string[]; files?: string[] }>;
  replacements?: Array<{
    source: { kind: string; name: string; fieldPath: string };
    targets: Array<{ select: { kind: string; name: string }; fieldPaths: string[] }>;
  }>;
}

export function readKustomization(dir: string): Kustomization {
  return parseYaml(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
}

/** The objects of one manifest file, each parsed (a YAML error names the file). */
export function loadManifest(dir: string, file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
    return document.toJS() as K8sObject;
  });
}

/**
 * A kustomization built as `kubectl kustomize` builds it, for the features deploy/kubernetes uses: resources,
 * `labels` (metadata only), `images`, `configMapGenerator` (`envs` and `files`) with kustomize's content hash in each generated
 * name and every reference to it rewritten, and `replacements` from a ConfigMap's data. Without kubectl the tests
 * still see what kubectl would apply; with it, test/unit/deploy/kubernetes-manifests.test.ts checks they agree.
 */
export function buildKustomization(dir: string): Array<{ file: string; object: K8sObject }> {
  const kustomization = readKustomization(dir);
  const generated = (kustomization.configMapGenerator ?? []).map((generator) => {
    const data: Record<string, string> = {};
    for (const file of generator.envs ?? []) Object.assign(data, parseEnvFile(readFileSync(path.join(dir, file), 'utf8')));
    for (const file of generator.files ?? []) data[path.basename(file)] = readFileSync(path.join(dir, file), 'utf8');
    const object: K8sObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data };
    return { file: 'kustomization.yaml', object, hashedName: `${generator.name}-${configMapHash(data)}` };
  });
  const all = [...generated, ...kustomization.resources.flatMap((file) => loadManifest(dir, file).map((object) => ({ file, object })))];

  for (const replacement of kustomization.replacements ?? []) {
    const { source } = replacement;
    const from = all.find(({ object }) => object.kind === source.kind && object.metadata.name === source.name)?.object;
    if (!from) throw new Error(`replacements: no ${source.kind} ${source.name}`);
    const value = fieldAt(from, source.fieldPath);
    if (value === undefined) throw new Error(`replacements: ${source.kind} ${source.name} has no ${source.fieldPath}`);
    for (const target of replacement.targets) {
      const to = all.find(({ object }) => object.kind === target.select.kind && object.metadata.name === target.select.name)?.object;
      if (!to) throw new Error(`replacements: no ${target.select.kind} ${target.select.name}`);
      for (const fieldPath of target.fieldPaths) setFieldAt(to, fieldPath, value);
    }
  }
  const renamed = new Map(generated.map((g) => [g.object.metadata.name, g.hashedName]));
  for (const g of generated) g.object.metadata.name = g.hashedName;
  for (const { object } of all) {
    const pod = object.spec?.template?.spec;
    if (pod) renameConfigMapReferences(pod, renamed);
    for (const container of pod?.containers ?? []) {
      const image = kustomization.images?.find((i) => i.name === container.image);
      if (image) container.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`;
    }
    for (const labels of kustomization.labels ?? []) object.metadata.labels = { ...object.metadata.labels, ...labels.pairs };
  }
  return all.map(({ file, object }) => ({ file, object }));
}

/** `kubectl kustomize dir`'s objects, or undefined when kubectl (with its built-in kustomize) is not installed. */
export function kubectlKustomize(dir: string): K8sObject[] | undefined {
  const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${run.stderr || run.error?.message}`);
  return parseAllDocuments(run.stdout).map((document) => document.toJS() as K8sObject);
}

/** A kustomize env file: NAME=value lines; blank lines and lines starting with # are skipped. */
function parseEnvFile(text: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const at = trimmed.indexOf('=');
    if (at <= 0) throw new Error(`env file line without NAME=value: ${trimmed}`);
    data[trimmed.slice(0, at)] = trimmed.slice(at + 1);
  }
  return data;
}

/**
 * kustomize's name suffix for a generated ConfigMap (api/hasher): the SHA-256 of the JSON of {data, kind, name} (keys
 * sorted, < > & escaped as Go's encoder does), its first 10 hex digits with 0 1 3 a e changed to g h k m t. The name
 * is empty there: kustomize 5 hashes a generated ConfigMap before giving it its name (checked against kubectl's).
 */
export function configMapHash(data: Record<string, string>): string {
  const sorted = Object.fromEntries(
    Object.keys(data)
      .sort()
      .map((key) => [key, data[key]]),
  );
  const json = JSON.stringify({ data: sorted, kind: 'ConfigMap', name: '' }).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const hex = createHash('sha256').update(json).digest('hex').slice(0, 10);
  return hex.replace(/[013ae]/g, (c) => ({ '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' })[c]!);
}

function fieldAt(object: unknown, fieldPath: string): unknown {
  return fieldPath.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], object);
}

function setFieldAt(object: unknown, fieldPath: string, value: unknown): void {
  const keys = fieldPath.split('.');
  const parent = fieldAt(object, keys.slice(0, -1).join('.')) as Record<string, unknown> | undefined;
  if (!parent || !(keys.at(-1)! in parent)) throw new Error(`replacements: no field ${fieldPath} to replace`);
  parent[keys.at(-1)!] = value;
}

function renameConfigMapReferences(pod: any, renamed: Map<string, string>): void {
  const rename = (ref: { name?: string } | undefined) => {
    if (ref?.name && renamed.has(ref.name)) ref.name = renamed.get(ref.name);
  };
  for (const container of [...(pod.containers ?? []), ...(pod.initContainers ?? [])]) {
    for (const from of container.envFrom ?? []) rename(from.configMapRef);
    for (const env of container.env ?? []) rename(env.valueFrom?.configMapKeyRef);
  }
  for (const volume of pod.volumes ?? []) rename(volume.configMap);
}
