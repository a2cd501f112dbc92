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

/** The `wrench` command line; returns the exit code. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...args] = argv;
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
