import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { parser } from '@prometheus-io/lezer-promql';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { HEALTH_TIMEOUT_MS } from '../../../handlers/health.js';
import { envSchema, withoutEmptyValues } from '../../../src/config/env-options.js';
import { metrics } from '../../../src/metrics/metrics.js';
import { TASK_QUEUE } from '../../../src/queue/task-job.js';
import { TRIAGE_QUEUE } from '../../../src/queue/triage-job.js';
import { HAND_BACK_SECONDS } from '../../helpers/shutdown-budget.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = path.join(ROOT, 'deploy/kubernetes');

/** The Kubernetes API's schema of each kind the manifests may hold (kubernetes-models, KEDA's CRD for ScaledObject). */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'apps/v1 StatefulSet': StatefulSet,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Service': Service,
  'keda.sh/v1alpha1 ScaledObject': ScaledObject,
};

/** The same kinds' TypeScript types (kubernetes-models), whose object literals may hold only the fields the API defines. */
const TYPES: Record<string, [module: string, type: string]> = {
  'apps/v1 Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'apps/v1 StatefulSet': ['kubernetes-models/apps/v1/StatefulSet', 'IStatefulSet'],
  'policy/v1 PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'],
  'v1 ConfigMap': ['kubernetes-models/v1/ConfigMap', 'IConfigMap'],
  'v1 Service': ['kubernetes-models/v1/Service', 'IService'],
  'keda.sh/v1alpha1 ScaledObject': ['@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject', 'IScaledObject'],
};

/**
 * Fields the Kubernetes API does not define (a misspelt `readinesProbe`, a field at the wrong level), which the
 * schemas' validators let through: each object becomes an object literal typed with its kind's interface, and
 * TypeScript's excess-property check names every unknown field. The source is in memory; nothing is written.
 */
function unknownFields(list: K8sObject[]): string[] {
  const file = path.join(DIR, '__manifests__.ts');
  const source = list
    .flatMap((object, i) => {
      const [module, type] = TYPES[`${object.apiVersion} ${object.kind}`] ?? [];
      if (!module) return [`export const o${i}: never = 0; // no type for ${object.apiVersion} ${object.kind}`];
      return [`import type { ${type} as T${i} } from '${module}';`, `export const o${i}: T${i} = ${JSON.stringify(object)};`];
    })
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  host.fileExists = (name) => name === file || fileExists(name);
  return ts.getPreEmitDiagnostics(ts.createProgram([file], options, host)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

/** Validates one object against its kind's schema; throws naming the object and the first problems. */
function validateObject(object: K8sObject, file: string): void {
  const Model = MODELS[`${object.apiVersion} ${object.kind}`];
  if (!Model) throw new Error(`${file}: no schema for ${object.apiVersion} ${object.kind}`);
  try {
    new Model(object as never).validate();
  } catch (error) {
    throw new Error(`${file}: ${object.kind} ${object.metadata?.name}: ${(error as Error).message}`);
  }
}

function loadFile(file: string): K8sObject[] {
  const documents = parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8'));
  return documents.map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
    return document.toJS() as K8sObject;
  });
}

const kustomization = parseYaml(readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
const objects = kustomization.resources.flatMap((file) => loadFile(file).map((object) => ({ file, object })));
const find = (kind: string, name: string): K8sObject => {
  const found = objects.find(({ object }) => object.kind === kind && object.metadata.name === name)?.object;
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found;
};
const web = find('Deployment', 'wrench-web');
const worker = find('StatefulSet', 'wrench-worker');
const containerOf = (workload: K8sObject): IContainer => (workload.spec.template as IPodTemplateSpec).spec!.containers[0]!;
const envExample = new Set([...readFileSync(path.join(ROOT, '.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
/** Variables whose values are credentials (or carry one: REDIS_URL holds Redis's password). */
const SECRET = /TOKEN|SECRET|API_KEY|PRIVATE_KEY$|PASSWORD|^REDIS_URL$/;
const schemaKeys = Object.keys(envSchema.shape);

/** The environment a container gets from its plain values and the ConfigMap wrench-env (secrets left out). */
function plainEnvironment(container: IContainer): Record<string, string> {
  const fromConfigMap = find('ConfigMap', 'wrench-env').data ?? {};
  const own = Object.fromEntries((container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, String(e.value)]));
  return { ...fromConfigMap, ...own };
}

describe('deploy/kubernetes: every object is valid for the Kubernetes API', () => {
  it('the kustomization lists every manifest of the directory', () => {
    const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it.each(objects.map(({ file, object }) => [`${file}: ${object.kind} ${object.metadata.name}`, file, object] as const))(
    '%s matches its schema',
    (_label, file, object) => {
      expect(() => validateObject(object, file)).not.toThrow();
    },
  );

  it('no object holds a field the Kubernetes API does not define', () => {
    expect(unknownFields(objects.map(({ object }) => object))).toEqual([]);
  });

  it('a misspelt or misplaced field is found', () => {
    const misspelt = structuredClone(worker);
    misspelt.spec.template.spec.containers[0].readinesProbe = misspelt.spec.template.spec.containers[0].readinessProbe;
    const misplaced = structuredClone(web);
    misplaced.spec.template.spec.procMount = 'Unmasked';
    const found = unknownFields([misspelt, misplaced]);
    expect(found).toEqual([
      expect.stringMatching(/'"readinesProbe"' does not exist in type 'IContainer'/),
      expect.stringMatching(/'"procMount"' does not exist in type 'IPodSpec'/),
    ]);
  });

  it('a wrong field type, a missing required field or an unknown kind fails validation', () => {
    const clone = (): K8sObject => structuredClone(worker);
    const wrongType = clone();
    wrongType.spec.template.spec.terminationGracePeriodSeconds = 'six minutes';
    expect(() => validateObject(wrongType, 'worker.yaml')).toThrow(/terminationGracePeriodSeconds must be integer/);
    const missing = clone();
    delete missing.spec.selector;
    expect(() => validateObject(missing, 'worker.yaml')).toThrow(/spec must have required property selector/);
    const badProbe = structuredClone(web);
    badProbe.spec.template.spec.containers[0].readinessProbe.httpGet.port = { name: 'http' };
    expect(() => validateObject(badProbe, 'web.yaml')).toThrow(/readinessProbe/);
    const badTrigger = structuredClone(find('ScaledObject', 'wrench-worker'));
    badTrigger.spec.triggers[0].metadata.threshold = 2;
    expect(() => validateObject(badTrigger, 'worker-autoscaling.yaml')).toThrow(/threshold must be string/);
    expect(() => validateObject({ ...clone(), apiVersion: 'apps/v1beta1' }, 'worker.yaml')).toThrow(/no schema for apps\/v1beta1 StatefulSet/);
  });

  it('the settings the manifests give Wrench are valid for Wrench (start-up would refuse them otherwise)', () => {
    for (const workload of [web, worker]) {
      const environment = plainEnvironment(containerOf(workload));
      expect(Object.keys(environment).filter((name) => !schemaKeys.includes(name))).toEqual([]);
      const parsed = envSchema.safeParse(withoutEmptyValues(environment));
      expect(parsed.success ? [] : parsed.error.issues.map((i) => i.message)).toEqual([]);
    }
  });
});

describe('deploy/kubernetes: what Wrench needs', () => {
  it('web and worker run the two roles of `wrench start`', () => {
    expect(containerOf(web).args).toEqual(['start', '--role', 'web']);
    expect(containerOf(worker).args).toEqual(['start', '--role', 'worker']);
  });

  it('probes ask /healthz on the port Wrench listens on, with more time than /healthz takes to answer', () => {
    const port = Number(/ENV [^\n]*PORT=(\d+)/.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1]);
    expect(port).toBe(3000);
    for (const workload of [web, worker]) {
      const container = containerOf(workload);
      expect(container.ports?.find((p) => p.name === 'http')?.containerPort).toBe(port);
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
        expect(probe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
        expect((probe?.timeoutSeconds ?? 1) * 1000).toBeGreaterThan(HEALTH_TIMEOUT_MS);
      }
    }
  });

  it('every secret of .env.example comes from the Secret `wrench` under its own name, in both roles; none is in a ConfigMap', () => {
    const secretVariables = [...envExample].filter((name): name is string => !!name && schemaKeys.includes(name) && SECRET.test(name));
    expect(secretVariables).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'SLACK_BOT_TOKEN', 'GITHUB_TOKEN', 'REDIS_URL']));
    for (const workload of [web, worker]) {
      const env = containerOf(workload).env ?? [];
      const refs = env.filter((e) => e.valueFrom?.secretKeyRef);
      for (const ref of refs) {
        expect(ref.valueFrom?.secretKeyRef).toMatchObject({ name: 'wrench', key: ref.name });
        expect(envExample.has(ref.name)).toBe(true);
      }
      expect(refs.map((r) => r.name).sort()).toEqual([...secretVariables].sort());
      expect(env.filter((e) => SECRET.test(e.name) && e.value !== undefined)).toEqual([]);
      // Several pods share one Redis: without REDIS_URL each would start its own embedded one.
      expect(refs.find((r) => r.name === 'REDIS_URL')?.valueFrom?.secretKeyRef?.optional).toBe(false);
    }
    for (const configMap of objects.filter(({ object }) => object.kind === 'ConfigMap')) {
      expect(Object.keys(configMap.object.data ?? {}).filter((key) => SECRET.test(key))).toEqual([]);
    }
  });

  it('the config file is mounted where the image reads it, the worker keeps WRENCH_DATA_DIR on its own volume and is named by its pod', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const configPath = /WRENCH_CONFIG=(\S+)/.exec(dockerfile)?.[1] ?? '';
    const dataDir = /WRENCH_DATA_DIR=(\S+)/.exec(dockerfile)?.[1] ?? '';
    const configMap = find('ConfigMap', 'wrench-config');
    expect(Object.keys(configMap.data ?? {})).toEqual([path.basename(configPath)]);
    parseYaml(configMap.data?.[path.basename(configPath)] ?? '');
    for (const workload of [web, worker]) {
      const mounts = containerOf(workload).volumeMounts ?? [];
      expect(mounts.find((m) => m.mountPath === path.dirname(configPath))).toMatchObject({ name: 'config', readOnly: true });
      expect(mounts.find((m) => m.mountPath === dataDir)?.name).toBe('data');
    }
    expect(worker.spec.volumeClaimTemplates.map((t: K8sObject) => t.metadata.name)).toEqual(['data']);
    // Host affinity names each worker by its pod, the name that goes with its volume of warm trees.
    expect(containerOf(worker).env?.find((e) => e.name === 'WRENCH_HOST_ID')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name');
    expect(schemaKeys).toContain('WRENCH_HOST_ID');
  });

  it('the worker has what bwrap needs, and nothing more: its own user namespace, /proc unmasked, no default seccomp or AppArmor profile; the web keeps the defaults', () => {
    const pod = worker.spec.template.spec;
    expect(pod.hostUsers).toBe(false);
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
      seccompProfile: { type: 'Unconfined' },
      appArmorProfile: { type: 'Unconfined' },
    });
    const context = containerOf(worker).securityContext;
    expect(context).toMatchObject({ procMount: 'Unmasked', allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(context?.privileged).toBeUndefined();
    expect(context?.capabilities?.add).toBeUndefined();
    const webPod = web.spec.template.spec;
    expect(webPod.hostUsers).toBeUndefined();
    expect(webPod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(containerOf(web).securityContext?.procMount).toBeUndefined();
  });

  it("the worker's termination grace covers the shutdown grace Wrench gives running jobs plus their hand-back", () => {
    // The grace as Wrench will read it: the manifest's value, or the code's default when the manifest sets none.
    const grace = envSchema.shape.WRENCH_SHUTDOWN_GRACE_SECONDS.parse(plainEnvironment(containerOf(worker)).WRENCH_SHUTDOWN_GRACE_SECONDS);
    expect(grace).toBeGreaterThanOrEqual(envSchema.shape.WRENCH_SHUTDOWN_GRACE_SECONDS.parse(undefined));
    expect(worker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(grace + HAND_BACK_SECONDS);
  });

  it('disruption budgets cover the web and the workers', () => {
    for (const [name, workload] of [
      ['wrench-web', web],
      ['wrench-worker', worker],
    ] as const) {
      const budget = find('PodDisruptionBudget', name);
      expect(budget.spec.selector.matchLabels).toEqual(workload.spec.selector.matchLabels);
      expect(workload.spec.template.metadata.labels).toMatchObject(budget.spec.selector.matchLabels);
    }
  });

  it("KEDA scales the worker StatefulSet on Wrench's own queue-depth gauge, with a query Prometheus can parse", async () => {
    const scaled = find('ScaledObject', 'wrench-worker');
    expect(scaled.spec.scaleTargetRef).toEqual({ apiVersion: worker.apiVersion, kind: worker.kind, name: worker.metadata.name });
    expect(worker.spec.replicas).toBeUndefined();
    const [trigger] = scaled.spec.triggers;
    expect(trigger.type).toBe('prometheus');
    const query = String(trigger.metadata.query);
    const gauge = (await metrics.registry.getSingleMetric('wrench_queue_depth')?.get())?.name;
    expect(gauge).toBe('wrench_queue_depth');
    expect(query).toContain(`${gauge}{`);
    expect(query).toContain(`queue=~"${TASK_QUEUE}|${TRIAGE_QUEUE}"`);
    let errors = 0;
    parser.parse(query).iterate({ enter: (node) => void (node.type.isError && errors++) });
    expect(errors).toBe(0);
    // threshold: jobs per worker, limits.concurrency of the config the manifests mount.
    const config = parseYaml(find('ConfigMap', 'wrench-config').data?.['wrench.config.yml'] ?? '') as { limits: { concurrency: number } };
    expect(Number(trigger.metadata.threshold)).toBe(config.limits.concurrency);
  });
});
