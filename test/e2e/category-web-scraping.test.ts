import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';
import { mention, replyIn, taskText } from './category-helpers.js';

const CONFIG = `
channels:
  C0SCRAPE: { repo: acme/shop-scraper, baseBranch: main }
sandbox: { mode: bwrap }
`;

const SCRAPER = `// Scrapes product names and prices from the shop's product list.
// Rate limit: at most 1 request per second (minIntervalMs), shared by every request, retries included.
// Retries: failed requests (network errors, 429, 5xx) are retried 3 times with exponential backoff.
// Logging: one JSON line per request with the URL and status, and one per failure.

export function parseProducts(html) {
  const products = [];
  for (const match of html.matchAll(/<li class="product"[^>]*>\\s*<span class="name">([^<]+)<\\/span>\\s*<span class="price">([^<]+)<\\/span>/g)) {
    products.push({ name: match[1].trim(), price: Number(match[2].replace(/[^0-9.]/g, '')) });
  }
  return products;
}

export function createLimiter(minIntervalMs, now = Date.now, sleep = (ms) => new Promise((r) => setTimeout(r, ms))) {
  let next = 0;
  return async () => {
    const wait = Math.max(0, next - now());
    next = Math.max(now(), next) + minIntervalMs;
    if (wait > 0) await sleep(wait);
  };
}

export async function fetchPage(url, { limiter, retries = 3, backoffMs = 500, log = (entry) => console.log(JSON.stringify(entry)), fetchImpl = fetch } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    await limiter();
    const started = Date.now();
    try {
      const response = await fetchImpl(url, { headers: { 'user-agent': 'acme-shop-scraper/1.0' } });
      log({ event: 'request', url, status: response.status, attempt, at: started, ms: Date.now() - started });
      if (response.ok) return await response.text();
      if (response.status !== 429 && response.status < 500) throw Object.assign(new Error(\`HTTP \${response.status}\`), { final: true });
      throw new Error(\`HTTP \${response.status}\`);
    } catch (error) {
      log({ event: 'failure', url, attempt, error: error.message });
      if (error.final || attempt > retries) throw error;
      await new Promise((r) => setTimeout(r, backoffMs * 2 ** (attempt - 1)));
    }
  }
}

export async function scrapeProducts(url, options = {}) {
  const limiter = options.limiter ?? createLimiter(options.minIntervalMs ?? 1000);
  return parseProducts(await fetchPage(url, { ...options, limiter }));
}
`;
const FIXTURE = `<html><body><ul>
  <li class="product"><span class="name">Blue mug</span> <span class="price">$12.50</span></li>
  <li class="product"><span class="name">Red kettle</span> <span class="price">$40.00</span></li>
</ul></body></html>
`;
const TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createLimiter, parseProducts, scrapeProducts } from '../src/scraper.js';

const fixture = await readFile(new URL('./fixtures/products.html', import.meta.url), 'utf8');

/** A local fixture server on 127.0.0.1: the first request fails with 503, then the saved page is served. */
async function fixtureServer() {
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(Date.now());
    if (hits.length === 1) return res.writeHead(503).end('busy');
    res.writeHead(200, { 'content-type': 'text/html' }).end(fixture);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: \`http://127.0.0.1:\${server.address().port}/products\`, hits, close: () => server.close() };
}

test('parses names and prices from the saved page', () => {
  assert.deepEqual(parseProducts(fixture), [{ name: 'Blue mug', price: 12.5 }, { name: 'Red kettle', price: 40 }]);
});

test('the limiter spaces requests by the minimum interval, whatever the caller does', async () => {
  let clock = 1000;
  const waits = [];
  const limiter = createLimiter(1000, () => clock, async (ms) => { waits.push(ms); clock += ms; });
  await limiter();
  await limiter();
  clock += 300;
  await limiter();
  assert.deepEqual(waits, [1000, 700]);
});

test('retries a 503 with backoff, keeps to the rate limit and logs each request', async () => {
  const server = await fixtureServer();
  const logs = [];
  try {
    const products = await scrapeProducts(server.url, { minIntervalMs: 200, backoffMs: 10, log: (entry) => logs.push(entry) });
    assert.equal(products.length, 2);
    assert.equal(server.hits.length, 2);
    const starts = logs.filter((l) => l.event === 'request').map((l) => l.at);
    assert.ok(starts[1] - starts[0] >= 150, \`requests start about 200 ms apart: \${starts[1] - starts[0]} ms\`);
    assert.deepEqual(logs.filter((l) => l.event === 'request').map((l) => l.status), [503, 200]);
  } finally {
    server.close();
  }
});
`;

const create = (path: string, text: string) => toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path, file_text: text } }]);

describe('web scraping, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'shop-scraper', {
      'package.json': JSON.stringify({ name: 'shop-scraper', type: 'module', scripts: { test: 'node --test test/' } }, null, 2),
      'README.md': '# Shop scraper\n',
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('makes the rate limit, retries and logging hard requirements, and verification runs the offline fixture-server test', async () => {
    const { anthropic, github } = world;
    anthropic.setScript([
      create('src/scraper.js', SCRAPER),
      create('test/fixtures/products.html', FIXTURE),
      create('test/scraper.test.js', TEST),
      toolUseResponse([{ name: 'bash', input: { command: 'npm test 2>&1 | tail -8' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Added a product scraper with a shared rate limiter, retries with backoff and JSON logging, tested against a local fixture server.',
            filesChanged: [
              { path: 'src/scraper.js', change: 'the scraper' },
              { path: 'test/scraper.test.js', change: 'offline tests against a fixture server' },
              { path: 'test/fixtures/products.html', change: 'saved product page' },
            ],
            verification: 'npm test: 3 passed, offline.',
            openQuestions: [],
          },
        },
      ]),
    ]);

    const ts = await mention(
      world,
      'C0SCRAPE',
      'Write a scraper in src/ for the product list at https://shop.example.com/products: at most 1 request per second, retry failed requests 3 times with backoff, log each request with URL and status. Return name and price of each product.',
    );
    const { text } = await replyIn(world, ts, /\/pull\//);

    // The instruction's own words are hard requirements; the rate limit quoted exactly.
    const first = anthropic.requests[0]!.body as { system: Array<{ text: string }> };
    const task = taskText(first);
    expect(task).toContain('Hard requirements');
    expect(task).toContain('Rate limit, exactly as the instruction states it: "at most 1 request per second"');
    expect(task).toContain('"retry failed requests 3 times with backoff"');
    expect(task).toContain('"log each request with URL and status"');
    expect(task).toContain('local fixture server on 127.0.0.1');
    // The category gets network under the sandbox policy (web-scraping: on by default).
    expect(first.system.map((b) => b.text).join('\n')).toContain('Network access is available.');

    // Verification (offline, by Wrench) ran the new fixture-server test: it passes.
    expect(text).toMatch(/`npm test`: before .* → after 3 passed, 0 failed/);
    expect(text).toContain('*improved*');
    const pull = github.pulls('acme', 'shop-scraper').at(-1)!;
    expect(pull.draft).toBe(false);
    const files = execFileSync('git', ['--git-dir', github.gitDir('acme', 'shop-scraper'), 'diff', '--name-only', `main...${pull.headRef}`], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    expect(files.sort()).toEqual(['src/scraper.js', 'test/fixtures/products.html', 'test/scraper.test.js']);
  });
});
