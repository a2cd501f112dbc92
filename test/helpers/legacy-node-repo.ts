import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Where tests keep the Node.js versions they provision (about 30 MB each, downloaded from the npm registry once
 * per machine and shared by every test run). WRENCH_TEST_RUNTIMES_DIR moves it.
 */
export const TEST_RUNTIMES_DIR = process.env.WRENCH_TEST_RUNTIMES_DIR ?? path.join(tmpdir(), 'wrench-test-runtimes');

/** The Node line the legacy repository pins: its CI matrix is 12 and 14, its .nvmrc says 14. */
export const LEGACY_NODE_MAJOR = '14';

const CIPHER = `'use strict';
// Legacy tokens were sealed with crypto.createCipher, which Node.js 22 removed.
const crypto = require('crypto');

function seal(text, secret) {
  const cipher = crypto.createCipher('aes-128-cbc', secret);
  return cipher.update(text, 'utf8', 'hex') + cipher.final('hex');
}

function open(sealed, secret) {
  const decipher = crypto.createDecipher('aes-128-cbc', secret);
  return decipher.update(sealed, 'hex', 'utf8') + decipher.final('utf8');
}

module.exports = { seal, open };
`;

const PAINT = `'use strict';
// Colour unless the environment turns it off, as most terminal libraries decide.
function enabled(env) {
  if ('NO_COLOR' in env) return false;
  if ('FORCE_COLOR' in env) return env.FORCE_COLOR !== '0';
  return env.TERM !== 'dumb';
}

function red(text, env = process.env) {
  return enabled(env) ? '\\u001b[31m' + text + '\\u001b[39m' : text;
}

module.exports = { red };
`;

/** A tiny TAP runner: no dependencies to install, and it runs on Node.js 12 as well as 26. */
const UNIT_TESTS = `'use strict';
const assert = require('assert');
const { seal, open } = require('../src/cipher');
const { red } = require('../src/paint');

const tests = [
  ['a sealed token opens again', () => assert.strictEqual(open(seal('token-1', 'k'), 'k'), 'token-1')],
  ['red text is coloured by default', () => assert.strictEqual(red('stop'), '\\u001b[31mstop\\u001b[39m')],
  ['NO_COLOR turns colour off', () => assert.strictEqual(red('stop', { NO_COLOR: '1' }), 'stop')],
  ['the CI job passes its greeting', () => assert.strictEqual(process.env.GREETING, 'hello from CI')],
];

let failed = 0;
tests.forEach(([name, run], index) => {
  try {
    run();
    console.log('ok ' + (index + 1) + ' - ' + name);
  } catch (error) {
    failed += 1;
    console.log('not ok ' + (index + 1) + ' - ' + name);
    console.log('  # ' + String(error.message).split('\\n')[0]);
  }
});
console.log('1..' + tests.length);
console.log('# pass ' + (tests.length - failed));
console.log('# fail ' + failed);
process.exitCode = failed ? 1 : 0;
`;

const CI = `name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      GREETING: hello from CI
      DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}
    strategy:
      matrix:
        node: [12, 14]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: \${{ matrix.node }}
      - name: Unit tests
        run: npm run test:unit
`;

/**
 * A repository of our own with the traits that made checks disagree with CI: pinned by .nvmrc and its CI matrix to
 * Node.js 14 (its code uses crypto.createCipher, gone since Node.js 22), a test of colour that NO_COLOR/FORCE_COLOR
 * would break, a CI job that names its own test command and passes a variable, and a package.json `test` script
 * that needs a database CI does not run.
 */
export function legacyNodeRepoFiles(): Record<string, string> {
  return {
    'README.md': '# tokens\n\nSeals legacy tokens.\n',
    '.nvmrc': `${LEGACY_NODE_MAJOR}\n`,
    'package.json': `${JSON.stringify(
      {
        name: 'tokens',
        version: '1.0.0',
        private: true,
        engines: { node: '>=12 <15' },
        scripts: { test: 'npm run test:unit && node test/database.js', 'test:unit': 'node test/unit.js' },
      },
      null,
      2,
    )}\n`,
    'src/cipher.js': CIPHER,
    'src/paint.js': PAINT,
    'test/unit.js': UNIT_TESTS,
    'test/database.js': "console.error('needs the PostgreSQL database at 127.0.0.1:5432');\nprocess.exit(1);\n",
    '.github/workflows/ci.yml': CI,
  };
}
