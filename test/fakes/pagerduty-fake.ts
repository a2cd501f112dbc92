/**
 * PagerDuty REST API v2 fake for @pagerduty/pdjs.
 *
 * Pointing pdjs at it: pdjs's `server` option only changes the host of an https:// URL
 * (`https://${server}/${endpoint}`), so it cannot reach a plain-HTTP fake. Pass the full `url` instead,
 * which pdjs uses as is (and keeps for `.next()` pagination):
 *
 *   const pd = api({ token });
 *   await pd.get('/incidents/Q1', { url: `${fake.url}/incidents/Q1` });
 *   await pd.post('/incidents/Q1/notes', { url: `${fake.url}/incidents/Q1/notes`, headers: { From: email }, data: { note: { content } } });
 *
 * With `url`, pdjs leaves `response.resource` null (it derives it from a `.com/` host), so read
 * `response.data.incident`, `response.data.alerts`, ... — that works against the real API too.
 */
import { listen } from './shared/http.js';
import { PatternFailures, type FailurePattern } from './shared/pattern-failures.js';
import { pollFor } from './shared/wait-for.js';
import { pagerDutyRequestHandler, type PagerDutyFailure, type PagerDutyRequest } from './pagerduty/server.js';
import { incidentJson, type Urls } from './pagerduty/shapes.js';
import { PagerDutyStore } from './pagerduty/store.js';
import type { IncidentRecord, NoteRecord, SeedIncident, SeedLogEntry, SeedService, SeedUser, UserRecord } from './pagerduty/types.js';

export type * from './pagerduty/types.js';
export type { PagerDutyFailure, PagerDutyRequest } from './pagerduty/server.js';

export interface PagerDutyFakeOptions {
  /** Accept only this API token; by default any. */
  token?: string;
  /** Refuse a From header that is not a seeded user (as PagerDuty does); default false. */
  strictFrom?: boolean;
}

export interface PagerDutyFake {
  /** PAGERDUTY_API_URL. */
  url: string;
  requests: PagerDutyRequest[];
  addService(service: SeedService): void;
  addUser(user: SeedUser): UserRecord;
  /** Seeds an incident with its alerts (default: one from the title) and log entries (default: a trigger entry). */
  addIncident(incident: SeedIncident): IncidentRecord;
  addLogEntry(incidentId: string, entry: SeedLogEntry): void;
  /** The incident exactly as GET /incidents/{id} returns it (for building webhooks). */
  incidentJson(id: string): Record<string, unknown>;
  /** Notes posted to an incident (all incidents when omitted), with the From user. */
  notes(incidentId?: string): NoteRecord[];
  failNext(pattern: FailurePattern, failure: PagerDutyFailure, times?: number): void;
  /** Answers the next matching request with this body (200), e.g. a documented REST answer kept as a fixture. */
  answerNext(pattern: FailurePattern, body: unknown, times?: number): void;
  waitForNote(incidentId: string, timeoutMs?: number): Promise<NoteRecord>;
  stop(): Promise<void>;
}

export async function startPagerDutyFake(options: PagerDutyFakeOptions = {}): Promise<PagerDutyFake> {
  const store = new PagerDutyStore();
  const requests: PagerDutyRequest[] = [];
  const failures = new PatternFailures<PagerDutyFailure>();
  const urls: Urls = { api: '' };
  const server = await listen(
    pagerDutyRequestHandler({ store, urls, requests, failures, token: options.token, strictFrom: options.strictFrom ?? false }),
    'pagerduty-fake',
  );
  urls.api = server.url;
  const notesOf = (incidentId?: string) => store.notes.filter((n) => !incidentId || n.incident === incidentId);
  return {
    url: server.url,
    requests,
    addService: (service) => void store.addService(service),
    addUser: (user) => store.addUser(user),
    addIncident: (incident) => store.addIncident(incident),
    addLogEntry(incidentId, entry) {
      const entries = store.logEntries.get(incidentId);
      if (!entries) throw new Error(`pagerduty-fake: no incident ${incidentId}`);
      entries.push(entry);
    },
    incidentJson(id) {
      const incident = store.incident(id);
      if (!incident) throw new Error(`pagerduty-fake: no incident ${id}`);
      return incidentJson(urls, store, incident);
    },
    notes: notesOf,
    failNext: (pattern, failure, times) => failures.add(pattern, failure, times),
    answerNext: (pattern, body, times) => failures.add(pattern, { status: 200, body }, times),
    waitForNote: (incidentId, timeoutMs = 5000) =>
      pollFor(
        () => notesOf(incidentId)[0],
        timeoutMs,
        () => `no note was posted on incident ${incidentId}`,
      ),
    stop: () => server.close(),
  };
}
