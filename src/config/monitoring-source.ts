import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());
const PLACEHOLDER = /\$\{(?:file:[^}]+|[A-Za-z_][A-Za-z0-9_]*)\}/;

/** An http(s) URL, or a string holding `${VAR}` / `${file:…}` (checked once substituted, when the source is used). */
const httpUrl = z.string().refine((value) => PLACEHOLDER.test(value) || isHttpUrl(value), { message: 'must be an http(s) URL or hold ${VAR}' });

export function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
const toolAllowlist = z
  .array(z.string().min(1))
  .min(1, { message: 'list the tools the triage agent may call' })
  .meta({ description: "The server's tools the triage agent may call; no other tool reaches it." });

const stdioServer = z
  .object({
    command: z.string().min(1).meta({ description: 'A server started as a command speaking MCP on stdio: the command.' }),
    args: z.array(z.string()).default([]).meta({ description: "The command's arguments." }),
    env: stringMap.default({}).meta({ description: "The command's environment (values may hold `${VAR}`).", key: 'variable' }),
    tools: toolAllowlist,
  })
  .strict();
const httpServer = z
  .object({
    url: httpUrl.meta({ description: 'A server spoken to over streamable HTTP: its URL (or a string holding `${VAR}`).' }),
    headers: stringMap.default({}).meta({ description: 'Headers sent with every request (values may hold `${VAR}`).', key: 'header' }),
    tools: toolAllowlist,
  })
  .strict();

/** One named evidence source under `monitoring:`; values may hold `${VAR}` taken from the environment. */
export const monitoringSourceSchema = z
  .object({
    prometheus: z
      .object({
        url: httpUrl.meta({ description: "The Prometheus server's base URL (or a string holding `${VAR}`)." }),
        headers: stringMap
          .default({})
          .meta({ description: 'Headers sent with every query, such as `Authorization` (values may hold `${VAR}`).', key: 'header' }),
        queries: stringMap.default({}).meta({ description: 'Named PromQL queries read around the incident and charted.', key: 'query name' }),
      })
      .strict()
      .optional()
      .meta({ description: 'A Prometheus server the triage reads metrics from.', unset: 'no metrics' }),
    window: z
      .object({
        minutesBefore: z.number().int().min(5).max(1440).default(60).meta({ description: 'Minutes before the incident that are read.' }),
        minutesAfter: z.number().int().min(0).max(720).default(30).meta({ description: 'Minutes after the incident that are read.' }),
        compareWeekEarlier: z.boolean().default(true).meta({ description: 'Each change is compared with the same window a week earlier.' }),
      })
      .strict()
      .optional()
      .meta({ description: 'The time around the incident that is read.', unset: 'the defaults of its keys' }),
    mcpServers: z
      .record(z.string().regex(/^[A-Za-z0-9_-]+$/, { message: 'must be letters, digits, - or _' }), z.union([stdioServer, httpServer]))
      .default({})
      .meta({
        description: 'MCP servers (Grafana, Sentry, Datadog…) whose listed tools the triage agent may call: a command on stdio, or a URL.',
        key: 'server',
      }),
  })
  .strict();

export type MonitoringSource = z.infer<typeof monitoringSourceSchema>;
