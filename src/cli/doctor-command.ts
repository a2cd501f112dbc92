import { loadConfig, type Config } from '../config/load-config.js';
import { isWrenchError } from '../errors.js';
import type { CliIo } from './cli-io.js';
import { ALL_CHECKS } from './doctor-checks.js';

/** `wrench doctor`: every check in turn, each with what to fix; exit code 1 when any fails. */
export async function doctorCommand(_args: string[], io: CliIo): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
    io.stdout(`ok    configuration: ${config.configPath ?? 'no wrench.config.yml (defaults)'}; ${Object.keys(config.file.channels).length} channel(s) linked`);
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
