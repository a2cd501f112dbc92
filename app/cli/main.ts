import { isWrenchError } from '../../src/errors.js';
import { classifyCommand, readerFromEnv } from './classify-command.js';
import { processIo, type CliIo } from './cli-io.js';
import { doctorCommand } from './doctor-command.js';
import { runCommand } from './run-command.js';
import { startCommand } from './start-command.js';

const USAGE = `Usage: wrench <command>

Commands:
  start [--role all|web|worker]        run the service (Slack, webhooks, workers)
  classify [--json] [--rules] [TEXT|-] show how Wrench reads an instruction
  run --repo PATH|owner/name [--base BRANCH | --continue] TEXT
                                       run one task without Slack and print the report
                                       --base BRANCH: start from BRANCH (default: the checked-out branch of
                                         PATH, or the repository's default branch)
                                       --continue: go on from the branch the last run on this repository left
                                         (the run commits onto it)
  doctor                               check configuration, Redis, git, the sandbox and credentials
  help                                 show this message`;

/** Each command's own usage, printed by `wrench <command> --help` (classify prints its own). */
const COMMAND_USAGE: Record<'start' | 'run' | 'doctor', string> = {
  start: `Usage: wrench start [--role all|web|worker]

Runs the service: Slack, webhooks and workers.

Options:
  --role ROLE  all (default), web (Slack, webhooks, run pages) or worker (runs jobs)
  -h, --help   show this message`,
  run: `Usage: wrench run --repo PATH|owner/name [--base BRANCH | --continue] TEXT

Runs one task without Slack and prints the report.

Options:
  --repo PATH|owner/name  a local checkout, or a repository Wrench can reach
  --base BRANCH           start from BRANCH (default: the checked-out branch of PATH, or the repository's
                          default branch)
  --continue              go on from the branch the last run on this repository left (the run commits onto it)
  -h, --help              show this message`,
  doctor: `Usage: wrench doctor

Checks configuration, Redis, git, the sandbox and credentials; exits 1 when any check fails.

Options:
  -h, --help  show this message`,
};

/** Whether `args` ask for help: `--help` or `-h` before any `--` (after it, words are the task's text). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The `wrench` command line; returns the exit code. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...args] = argv;
  if ((command === 'start' || command === 'run' || command === 'doctor') && asksForHelp(args)) {
    io.stdout(COMMAND_USAGE[command]);
    return 0;
  }
  try {
    switch (command) {
      case 'start':
        return await startCommand(args, io);
      case 'classify':
        return await classifyCommand(args, io, readerFromEnv());
      case 'run':
        return await runCommand(args, io);
      case 'doctor':
        return await doctorCommand(args, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.stderr(`wrench: unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    io.stderr(isWrenchError(error) ? `wrench: ${error.message}` : `wrench: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}
