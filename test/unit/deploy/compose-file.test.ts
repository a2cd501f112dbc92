import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  volumes?: unknown[];
  security_opt?: string[];
}

/** The file with its commented-out worker uncommented, as the comment invites. */
function withWorker(): string {
  return text
    .replace(/^ {2}# (worker:\n(?: {2}# {3}.*\n)+)/m, (_all, block: string) => `  ${block.replace(/^ {2}# {3}/gm, '    ')}`)
    .replace(/^ {2}# (worker-data:)$/m, '  $1');
}

describe('docker-compose.yml', () => {
  it('is YAML docker compose can read: no merge-conflict markers, the services it documents', () => {
    expect(text).not.toMatch(/^(<{7}|={7}|>{7})/m);
    const compose = parseYaml(text) as { services: Record<string, ComposeService> };
    expect(Object.keys(compose.services)).toEqual(['redis', 'wrench']);
    expect(compose.services.wrench?.security_opt).toEqual(['seccomp=unconfined', 'apparmor=unconfined', 'systempaths=unconfined']);
  });

  it('its commented-out worker, uncommented, is a worker like the wrench service: same Redis with the password, same sandbox settings', () => {
    const compose = parseYaml(withWorker()) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
    const worker = compose.services.worker;
    expect(worker?.command).toEqual(['start', '--role', 'worker']);
    expect(worker?.environment?.REDIS_URL).toBe(compose.services.wrench?.environment?.REDIS_URL);
    expect(worker?.security_opt).toEqual(compose.services.wrench?.security_opt);
    expect(worker?.volumes?.[0]).toEqual(compose.services.wrench?.volumes?.[0]);
    expect(Object.keys(compose.volumes)).toContain('worker-data');
  });
});
