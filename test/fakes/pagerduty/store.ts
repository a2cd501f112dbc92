import { upperId } from '../shared/ids.js';
import type { AlertRecord, IncidentRecord, NoteRecord, SeedIncident, SeedLogEntry, SeedService, SeedUser, UserRecord } from './types.js';

export function isoNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Incidents, alerts, log entries, notes, services and users of one fake PagerDuty account. */
export class PagerDutyStore {
  readonly incidents: IncidentRecord[] = [];
  readonly alerts: AlertRecord[] = [];
  readonly logEntries = new Map<string, SeedLogEntry[]>();
  readonly notes: NoteRecord[] = [];
  readonly services = new Map<string, Required<SeedService>>();
  readonly users: UserRecord[] = [];
  private lastNumber = 1000;

  addService(service: SeedService): Required<SeedService> {
    const full = { name: `Service ${service.id}`, description: '', ...service };
    this.services.set(service.id, full);
    return full;
  }

  addUser(user: SeedUser): UserRecord {
    const record = { id: user.id ?? upperId('P', 6), email: user.email, name: user.name ?? user.email.split('@')[0] ?? user.email };
    this.users.push(record);
    return record;
  }

  userByEmail(email: string): UserRecord | undefined {
    return this.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  }

  addIncident(seed: SeedIncident): IncidentRecord {
    const serviceId = seed.service ?? [...this.services.keys()][0] ?? 'PSERVICE1';
    if (!this.services.has(serviceId)) this.addService({ id: serviceId });
    const createdAt = seed.created_at ?? isoNow();
    this.lastNumber = Math.max(this.lastNumber + 1, seed.number ?? 0);
    const incident: IncidentRecord = {
      id: seed.id ?? upperId('Q', 13),
      number: seed.number ?? this.lastNumber,
      title: seed.title,
      status: seed.status ?? 'triggered',
      urgency: seed.urgency ?? 'high',
      service: serviceId,
      incident_key: seed.incident_key ?? upperId('', 32).toLowerCase(),
      created_at: createdAt,
      updated_at: createdAt,
      priority: seed.priority ?? null,
      ...(seed.details ? { details: seed.details } : {}),
    };
    this.incidents.push(incident);
    const alerts = seed.alerts ?? [{ summary: seed.title }];
    for (const alert of alerts) {
      this.alerts.push({
        id: alert.id ?? upperId('Q', 13),
        incident: incident.id,
        summary: alert.summary ?? seed.title,
        severity: alert.severity ?? 'critical',
        status: alert.status ?? (incident.status === 'resolved' ? 'resolved' : 'triggered'),
        alert_key: alert.alert_key ?? incident.incident_key,
        created_at: alert.created_at ?? createdAt,
        details: alert.details ?? {},
        cef_details: alert.cef_details ?? {},
        source: alert.source ?? 'monitoring.example.com',
      });
    }
    this.logEntries.set(incident.id, seed.logEntries ?? [{ type: 'trigger_log_entry', summary: 'Triggered through the API.', created_at: createdAt }]);
    return incident;
  }

  incident(id: string): IncidentRecord | undefined {
    return this.incidents.find((i) => i.id === id);
  }
}
