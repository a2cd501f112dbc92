import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.js';
import { describeSandboxContract } from './sandbox-contract.js';

describeSandboxContract('process sandbox (mode none)', (root, secrets) => createProcessSandbox({ root, secrets }));
