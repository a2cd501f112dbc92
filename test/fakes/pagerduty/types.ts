export type IncidentStatus = 'triggered' | 'acknowledged' | 'resolved';

export interface SeedAlert {
  id?: string;
  summary?: string;
  severity?: 'critical' | 'error' | 'warning' | 'info';
  status?: 'triggered' | 'resolved';
  /** Custom details (Events API v2 `payload.custom_details`), shown as `body.details`. */
  details?: Record<string, unknown>;
  /** Overrides for `body.cef_details` (source_origin, source_component, description, ...). */
  cef_details?: Record<string, unknown>;
  source?: string;
  alert_key?: string;
  created_at?: string;
}

export interface SeedLogEntry {
  id?: string;
  type?: string;
  summary?: string;
  created_at?: string;
  channel?: Record<string, unknown>;
  agent?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SeedIncident {
  id?: string;
  number?: number;
  title: string;
  status?: IncidentStatus;
  urgency?: 'high' | 'low';
  /** Service id; an unknown id creates the service. Default: the first service, or PSERVICE1. */
  service?: string;
  incident_key?: string;
  created_at?: string;
  priority?: { id: string; summary: string } | null;
  /** Incident body details (`body.details`). */
  details?: string;
  alerts?: SeedAlert[];
  logEntries?: SeedLogEntry[];
}

export interface SeedService {
  id: string;
  name?: string;
  description?: string;
}

export interface SeedUser {
  id?: string;
  email: string;
  name?: string;
}

export interface IncidentRecord {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  urgency: 'high' | 'low';
  service: string;
  incident_key: string;
  created_at: string;
  updated_at: string;
  priority: { id: string; summary: string } | null;
  details?: string;
}

export interface AlertRecord extends Required<Pick<SeedAlert, 'summary' | 'severity' | 'status' | 'alert_key' | 'created_at'>> {
  id: string;
  incident: string;
  details: Record<string, unknown>;
  cef_details: Record<string, unknown>;
  source: string;
}

export interface NoteRecord {
  id: string;
  incident: string;
  content: string;
  /** The user named by the From header. */
  user: { id: string; email: string; name: string };
  created_at: string;
}

export interface UserRecord {
  id: string;
  email: string;
  name: string;
}
