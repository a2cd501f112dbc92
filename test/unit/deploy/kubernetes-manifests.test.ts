import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { parser } from '@prometheus-io/lezer-promql';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { HEALTH_TIMEOUT_MS } from '../../../handlers/health.js';
import { envSchema, withoutEmptyValues } from '../../../src/config/env-options.js';
import { metrics } from '../../../src/metrics/metrics.js';
import { TASK_QUEUE } from '../../../src/queue/task-job.js';
import { TRIAGE_QUEUE } from '../../../src/queue/triage-job.js';
import { buildKustomization, configMapHash, type K8sObject, kubectlKustomize, readKustomization } from '../../helpers/kustomize.js';
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
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1 ScaledObject': ScaledObject,
};

/** The same kinds' TypeScript types (kubernetes-models), whose object literals may hold only the fields the API defines. */
const TYPES: Record<string, [module: string, type: string]> = {
  'apps/v1 Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'apps/v1 StatefulSet': ['kubernetes-models/apps/v1/StatefulSet', 'IStatefulSet'],
  'policy/v1 PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'],
  'v1 ConfigMap': ['kubernetes-models/v1/ConfigMap', 'IConfigMap'],
  'v1 Service': ['kubernetes-models/v1/Service', 'IService'],
  'networking.k8s.io/v1 NetworkPolicy': ['kubernetes-models/networking.k8s.io/v1/NetworkPolicy', 'INetworkPolicy'],
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

const kustomization = readKustomization(DIR);
/** What `kubectl apply -k deploy/kubernetes` applies: the resources, the generated ConfigMaps, the replacements made. */
const objects = buildKustomization(DIR);
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

/** A generated ConfigMap (`wrench-env`, `wrench-config`) under the name kustomize gives it: `<name>-<content hash>`. */
const generated = (name: string): K8sObject => {
  const found = objects.filter(({ object }) => object.kind === 'ConfigMap' && object.metadata.name.startsWith(`${name}-`));
  if (found.length !== 1) throw new Error(`${found.length} generated ConfigMaps ${name}-<hash>`);
  return found[0]!.object;
};

/** The environment a container gets from its plain values and the ConfigMap wrench-env (secrets left out). */
function plainEnvironment(container: IContainer): Record<string, string> {
  const fromConfigMap = generated('wrench-env').data ?? {};
  const own = Object.fromEntries((container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, String(e.value)]));
  return { ...fromConfigMap, ...own };
}

describe('deploy/kubernetes: every object is valid for the Kubernetes API', () => {
  it('the kustomization lists every file of the directory: manifests as resources, the rest as sources of its ConfigMaps', () => {
    const sources = (kustomization.configMapGenerator ?? []).flatMap((g) => [...(g.envs ?? []), ...(g.files ?? [])]);
    const files = readdirSync(DIR).filter((f) => f !== 'kustomization.yaml');
    expect([...kustomization.resources, ...sources].sort()).toEqual(files.sort());
  });

  it('kubectl kustomize builds the same objects as the tests read (when kubectl is installed)', (context) => {
    const built = kubectlKustomize(DIR);
    if (!built) return context.skip('kubectl is not installed: the kustomization is built by test/helpers/kustomize.ts only');
    const key = (o: K8sObject) => `${o.kind} ${o.metadata.name}`;
    const ours = new Map(objects.map(({ object }) => [key(object), object]));
    expect(built.map(key).sort()).toEqual([...ours.keys()].sort());
    for (const object of built) expect(isDeepStrictEqual(object, ours.get(key(object))) ? key(object) : object).toBe(key(object));
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

  it('liveness and start-up ask /livez (nothing outside the process), readiness /healthz (Redis), on the port Wrench listens on, with more time than /healthz takes', () => {
    const port = Number(/ENV [^\n]*PORT=(\d+)/.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1]);
    expect(port).toBe(3000);
    for (const workload of [web, worker]) {
      const container = containerOf(workload);
      expect(container.ports?.find((p) => p.name === 'http')?.containerPort).toBe(port);
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/livez', port: 'http' });
      expect(container.startupProbe?.httpGet).toEqual({ path: '/livez', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
        expect((probe?.timeoutSeconds ?? 1) * 1000).toBeGreaterThan(HEALTH_TIMEOUT_MS);
      }
    }
    // Both routes are served by both roles (the web's Slack app and the worker's health server).
    const service = readFileSync(path.join(ROOT, 'app/service/start-service.ts'), 'utf8');
    expect(service.match(/'\/livez'/g)).toHaveLength(2);
    expect(service.match(/'\/healthz'/g)).toHaveLength(2);
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
    const configMap = generated('wrench-config');
    expect(Object.keys(configMap.data ?? {})).toEqual([path.basename(configPath)]);
    parseYaml(configMap.data?.[path.basename(configPath)] ?? '');
    for (const workload of [web, worker]) {
      const mounts = containerOf(workload).volumeMounts ?? [];
      expect(mounts.find((m) => m.mountPath === path.dirname(configPath))).toMatchObject({ name: 'config', readOnly: true });
      const volume = workload.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'config');
      expect(volume.configMap.name).toBe(configMap.metadata.name);
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

  it("KEDA scales the worker StatefulSet on Wrench's own queue-depth gauge, leaving out the queue while model calls wait for the budget, with a query Prometheus can parse", async () => {
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
    const budget = (await metrics.registry.getSingleMetric('wrench_model_budget_waiting_calls')?.get())?.name;
    expect(budget).toBe('wrench_model_budget_waiting_calls');
    expect(query).toContain(`unless on() (sum(${budget}) > 0)`);
    let errors = 0;
    parser.parse(query).iterate({ enter: (node) => void (node.type.isError && errors++) });
    expect(errors).toBe(0);
  });

  it("the threshold is the workers' concurrency: WRENCH_CONCURRENCY of wrench.env, put there by the kustomization, which Wrench reads in place of limits.concurrency", () => {
    const raw = readFileSync(path.join(DIR, 'worker-autoscaling.yaml'), 'utf8');
    expect(raw).not.toMatch(/threshold: "?\d/);
    const threshold = find('ScaledObject', 'wrench-worker').spec.triggers[0].metadata.threshold;
    const concurrency = generated('wrench-env').data?.WRENCH_CONCURRENCY;
    expect(threshold).toBe(concurrency);
    expect(envSchema.shape.WRENCH_CONCURRENCY.parse(concurrency)).toBe(Number(threshold));
    expect(plainEnvironment(containerOf(worker)).WRENCH_CONCURRENCY).toBe(threshold);
    // Set once: the mounted config file leaves limits.concurrency to it.
    const config = parseYaml(generated('wrench-config').data?.['wrench.config.yml'] ?? '') as { limits?: { concurrency?: number } };
    expect(config.limits?.concurrency).toBeUndefined();
  });
});

describe('deploy/kubernetes: rollout, confinement, reach, scraping', () => {
  it('both ConfigMaps are generated with a hash of their content in the name, and the pods refer to that name: a changed setting rolls them', () => {
    expect(kustomization.configMapGenerator?.map((g) => g.name).sort()).toEqual(['wrench-config', 'wrench-env']);
    for (const name of ['wrench-env', 'wrench-config']) {
      const configMap = generated(name);
      expect(configMap.metadata.name).toBe(`${name}-${configMapHash(configMap.data ?? {})}`);
      // Any change of content is a new name.
      expect(configMapHash({ ...configMap.data, CHANGED: 'x' })).not.toBe(configMapHash(configMap.data ?? {}));
    }
    for (const workload of [web, worker]) {
      expect(containerOf(workload).envFrom?.map((e) => e.configMapRef?.name)).toEqual([generated('wrench-env').metadata.name]);
    }
    // No ConfigMap written as a resource (it would keep its name, and pods would never see its changes).
    expect(objects.filter(({ file, object }) => object.kind === 'ConfigMap' && file !== 'kustomization.yaml')).toEqual([]);
  });

  it('no pod gets a service account token', () => {
    for (const workload of [web, worker]) expect(workload.spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  it('a NetworkPolicy confines every Wrench pod: in, only the HTTP port; out, only DNS, Redis (and Sentinel) and HTTPS', () => {
    const policies = objects.filter(({ object }) => object.kind === 'NetworkPolicy').map(({ object }) => object);
    expect(policies).toHaveLength(1);
    const policy = policies[0]!;
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    for (const workload of [web, worker]) expect(workload.spec.template.metadata.labels).toMatchObject(policy.spec.podSelector.matchLabels);
    // A rule without ports, or with a port range, would open more than it says.
    const rulePorts = (rules: Array<{ ports?: Array<{ port: number | string; protocol: string; endPort?: number }> }>) =>
      rules.flatMap((rule) => {
        expect(rule.ports?.length).toBeGreaterThan(0);
        return (rule.ports ?? []).map((p) => {
          expect(p.endPort).toBeUndefined();
          return `${p.protocol}/${p.port}`;
        });
      });
    expect(rulePorts(policy.spec.ingress)).toEqual(['TCP/http']);
    expect(policy.spec.ingress.every((rule: { from?: unknown }) => rule.from === undefined)).toBe(true);
    expect(rulePorts(policy.spec.egress).sort()).toEqual(['TCP/26379', 'TCP/443', 'TCP/53', 'TCP/6379', 'UDP/53']);
    // The named port is the one the probes, Slack and Prometheus reach.
    for (const workload of [web, worker]) expect(containerOf(workload).ports?.map((p) => p.name)).toEqual(['http']);
  });

  it('the web pods spread over nodes (and zones where there are several)', () => {
    const constraints = web.spec.template.spec.topologySpreadConstraints as Array<Record<string, any>>;
    expect(constraints.map((c) => [c.topologyKey, c.whenUnsatisfiable, c.maxSkew])).toEqual([
      ['kubernetes.io/hostname', 'DoNotSchedule', 1],
      ['topology.kubernetes.io/zone', 'ScheduleAnyway', 1],
    ]);
    for (const constraint of constraints) expect(constraint.labelSelector.matchLabels).toEqual(web.spec.selector.matchLabels);
    expect(web.spec.replicas).toBeGreaterThan(1);
  });

  it("Prometheus is told to scrape every pod's /metrics on the HTTP port (what KEDA's query reads)", () => {
    for (const workload of [web, worker]) {
      const port = containerOf(workload).ports?.find((p) => p.name === 'http')?.containerPort;
      expect(workload.spec.template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
    }
    expect(plainEnvironment(containerOf(worker)).WRENCH_METRICS).toBe('on');
  });

  it("every pod mounts the optional Secret wrench-redis-ca where wrench.env's WRENCH_REDIS_CA_FILE example points", () => {
    const example = /^#\s*WRENCH_REDIS_CA_FILE=(\S+)$/m.exec(readFileSync(path.join(DIR, 'wrench.env'), 'utf8'))?.[1];
    expect(example).toBeDefined();
    expect(schemaKeys).toContain('WRENCH_REDIS_CA_FILE');
    for (const workload of [web, worker]) {
      const mount = containerOf(workload).volumeMounts?.find((m) => m.name === 'redis-ca');
      expect(mount).toMatchObject({ mountPath: path.dirname(example!), readOnly: true });
      const volume = workload.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'redis-ca');
      expect(volume.secret).toEqual({ secretName: 'wrench-redis-ca', optional: true });
    }
  });
});
