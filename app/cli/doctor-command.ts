import { loadConfig, type Config } from '../../src/config/load-config.js';
import { isWrenchError } from '../../src/errors.js';
import type { CliIo } from './cli-io.js';
import { ALL_CHECKS } from './doctor-checks.js';

/** `wrench doctor`: every check in turn, each with what to fix; exit code 1 when any fails. */
export async function doctorCommand(_args: string[], io: CliIo): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
    io.stdout(configurationLine(config));
  } catch (error) {
    io.stdout(`FAIL  configuration: ${isWrenchError(error) ? error.message : String(error)}`);
    return 1;
  }
  let failures = 0;
  for (const check of ALL_CHECKS) {
    const result = await check(config);
    if (!result.ok) failures++;
    const mark = result.skipped ? 'off ' : result.warning ? 'WARN' : result.ok ? 'ok  ' : 'FAIL';
    const showFix = result.fix && (!result.ok || result.warning);
    io.stdout(`${mark}  ${result.name}: ${result.detail}${showFix ? `\n      fix: ${result.fix}` : ''}`);
  }
  io.stdout(failures === 0 ? '\nAll checks passed.' : `\n${failures} check(s) failed.`);
  return failures === 0 ? 0 : 1;
}

/** The configuration's line: a warning (not a failure) when no channel is linked, since mentions then need a repository named. */
export function configurationLine(config: Config): string {
  const file = config.configPath ?? 'no wrench.config.yml (defaults)';
  const linked = Object.keys(config.file.channels).length;
  if (linked > 0) return `ok    configuration: ${file}; ${linked} channel(s) linked`;
  return [
    `warn  configuration: ${file}; no channel is linked to a repository, so a mention works only when it names an allowed repository (repos:)`,
    '      fix: Link each channel Wrench works in under channels: in wrench.config.yml, e.g. C0123ABCD: { repo: acme/web }',
  ].join('\n');
}
