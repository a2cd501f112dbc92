import { toolUseResponse } from '../fakes/anthropic-fake.js';

/** The demo repository `npm run try` and `npm run docs:picture` both work on. */
export const DEMO_SOURCE = 'export function formatBytes(n) {\n  return `${n} B`;\n}\n';

const TEST_FILE =
  "import test from 'node:test';\nimport assert from 'node:assert';\nimport { formatBytes } from './format.js';\n\ntest('0 bytes', () => assert.equal(formatBytes(0), '0 B'));\n";

/** The scripted model's four steps on it: read the code, write a test, run the tests, finish. */
export function demoScript() {
  return [
    toolUseResponse([{ name: 'bash', input: { command: 'cat src/format.js' } }]),
    toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/format.test.js', file_text: TEST_FILE } }]),
    toolUseResponse([{ name: 'bash', input: { command: 'npm test' } }]),
    toolUseResponse([
      {
        name: 'finish_task',
        input: {
          summary: 'Added a test for formatBytes covering 0 bytes.',
          filesChanged: [{ path: 'src/format.test.js', change: 'new test' }],
          verification: 'npm test: 1 passed',
          openQuestions: [],
        },
      },
    ]),
  ];
}
