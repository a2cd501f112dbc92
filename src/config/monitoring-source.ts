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
const toolAllowlist = z.array(z.string().min(1)).min(1, { message: 'list the tools the triage agent may call' });

const stdioServer = z.object({ command: z.string().min(1), args: z.array(z.string()).default([]), env: stringMap.default({}), tools: toolAllowlist }).strict();
const httpServer = z.object({ url: httpUrl, headers: stringMap.default({}), tools: toolAllowlist }).strict();

/** One named evidence source under `monitoring:`; values may hold `${VAR}` taken from the environment. */
export const monitoringSourceSchema = z
  .object({
    prometheus: z
      .object({ url: httpUrl, headers: stringMap.default({}), queries: stringMap.default({}) })
      .strict()
      .optional(),
    window: z
      .object({
        minutesBefore: z.number().int().min(5).max(1440).default(60),
        minutesAfter: z.number().int().min(0).max(720).default(30),
        compareWeekEarlier: z.boolean().default(true),
      })
      .strict()
      .optional(),
    mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, { message: 'must be letters, digits, - or _' }), z.union([stdioServer, httpServer])).default({}),
  })
  .strict();

export type MonitoringSource = z.infer<typeof monitoringSourceSchema>;
