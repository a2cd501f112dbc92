import type { z } from 'zod';
import { WrenchError } from '../errors.js';

export class ConfigError extends WrenchError {
  constructor(message: string) {
    super('config_invalid', message);
    this.name = 'ConfigError';
  }
}

/** One readable line per problem, naming the variable or key. */
export function describeIssues(issues: z.core.$ZodIssue[], where: (path: PropertyKey[]) => string): string {
  return issues.map((issue) => `- ${where(issue.path)}: ${issue.message}`).join('\n');
}
