import type { Category, Complexity, Verdict } from '../../../src/instruction/instruction-types.js';

/** Hand-labelled instructions in realistic Slack phrasing, beyond the shared samples. */
export interface LabelledCase {
  text: string;
  category: Category;
  complexity: Complexity;
  verdict: Verdict;
  /** When given, the reading's `missing` must equal it exactly. */
  missing?: string[];
}

export const CASES: LabelledCase[] = [
  // testing
  {
    text: "<@U0BOT> pls write unit tests for `slugify()` in src/utils/slug.ts — cover unicode, empty string and repeated dashes. follow the style of src/utils/trim.test.ts",
    category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> *Task:* add integration tests for the orders API (src/api/orders/)\n*Requirements:*\n• spin up the test db via test/helpers/db.ts\n• cover create, list, cancel\n• cover 404 on unknown order id\n*Success criteria:* `npm run test:int` green in CI",
    category: 'testing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> can u add some tests plz', category: 'testing', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'location'] },
  {
    text: "<@U0BOT> the test `applies coupon` in test/checkout/checkout.spec.ts is flaky on CI (fails ~1 in 5 runs with a timeout). make it deterministic, probably the fake timers",
    category: 'testing', complexity: 'medium', verdict: 'well-formed',
  },
  {
    text: '<@U0BOT> add snapshot tests for the `InvoiceTable` component in web/src/components/InvoiceTable.tsx like the ones for ReceiptTable',
    category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> we need tests for the billing stuff', category: 'testing', complexity: 'simple', verdict: 'ill-formed', missing: ['location'] },
  {
    text: '<@U0BOT> raise coverage of src/parsers/ to 90% (currently 62%). Focus on the error branches in src/parsers/csv.ts and src/parsers/xlsx.ts',
    category: 'testing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> write a property-based test (fast-check) for `mergeIntervals` in src/lib/intervals.ts: output sorted, no overlaps, same total length',
    category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> e2e tests for the signup flow pls 🙏', category: 'testing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: '<@U0BOT> tests', category: 'testing', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'location'] },
  {
    text: '<@U0BOT> Add regression tests for the rounding bug fixed in PR #412 (`calculateTax` in src/tax/calc.ts). Use the table-driven style from test/tax/vat.test.ts',
    category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> please improve our testing',
    category: 'testing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'location', 'success-criteria'],
  },
  {
    text: '<@U0BOT> ad tests for `parseQuery` in src/url/query.ts pls, cover empty + encoded values',
    category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> Tests for src/payments/refund.ts are missing — add unit tests for `refund()` covering partial refunds, full refunds, and refunds on already-refunded charges (should throw `AlreadyRefundedError`).",
    category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },

  // bug-fixing
  {
    text: '<@U0BOT> login returns 500 when the email has uppercase letters. src/auth/login.ts, probably `findUserByEmail` — should be case-insensitive',
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> fix the bug', category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'observed-problem', 'location'] },
  { text: '<@U0BOT> checkout is broken, can someone fix it', category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  {
    text: '<@U0BOT> Bug: `formatPrice(1999, "EUR")` returns "€19.99" but should return "19,99 €" for locale de-DE.\nFile: src/i18n/price.ts',
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> getting this when running the nightly export:\n```Traceback (most recent call last):\n  File "jobs/export.py", line 88, in run\n    rows = fetch_rows(conn)\n  File "jobs/db.py", line 41, in fetch_rows\n    cur.execute(QUERY)\npsycopg2.errors.UndefinedColumn: column "archived_at" does not exist```\nthe column was renamed in migration 0042. fix pls',
    category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> users on Safari can't upload avatars, the upload button does nothing. no errors in the console. component is web/src/settings/AvatarUpload.tsx",
    category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> pagination on /api/products skips items: page 2 starts at item 22 instead of 21. Probably an off-by-one in `paginate()` src/api/pagination.ts:34. add a test',
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> something's off with the totals on the invoice page, can you take a look?",
    category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'],
  },
  {
    text: '<@U0BOT> Observed: CSV export of >10k rows times out after 30s (504 from the LB)\nExpected: the export completes, streamed\nWhere: src/export/csvExport.ts `exportOrders`\nRepro: Orders > Export with no filters on staging',
    category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> dates are wrong', category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  {
    text: "<@U0BOT> TypeError: Cannot read properties of undefined (reading 'id') in src/cart/cart.ts:57 when the cart is empty. fix + test pls",
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> fix typo in README.md: "recieve" → "receive"',
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> the nightly `sync-inventory` job stopped running after we upgraded node to 20 (last run 3 days ago). No logs at all. Job defined in jobs/syncInventory.ts, scheduled in infra/cron.yaml',
    category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> Dark mode toggle doesn't persist — after reload it's back to light. Stored in localStorage key `theme` in web/src/hooks/useTheme.ts",
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> fixx the null check in src/users/profile.ts:42, `user.address` can be undefined and then it throws',
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> The `Retry-After` header is ignored by our http client — it retries immediately on 429. src/http/client.ts `withRetry`. Expected: wait the given seconds (cap 60).',
    category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> memory leak in the websocket gateway since v2.3.0 — RSS grows ~200MB/hour until OOM kill. service lives in services/gateway/',
    category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> the app crashes', category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'observed-problem', 'location'] },

  // feature
  { text: '<@U0BOT> add authentication', category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: '<@U0BOT> add a token-based login endpoint', category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  {
    text: '<@U0BOT> add a `--dry-run` option to the `deploy` command (src/cli/deploy.ts) that prints the plan and exits 0 without touching anything. same pattern as `--verbose`',
    category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> we need SSO', category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  {
    text: '<@U0BOT> *Goal:* let admins export the audit log as CSV\n*Requirements:*\n1. GET /admin/audit-log.csv streams rows (reuse `streamCsv` from src/lib/csv.ts)\n2. filters: from, to, actor\n3. admin-only (middleware in src/api/middleware/requireAdmin.ts)\n*Done when:* the endpoint has tests and is documented in docs/admin.md',
    category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> make the app better', category: 'feature', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  {
    text: "<@U0BOT> Add an 'Export to PDF' button on the invoice detail page (web/src/pages/invoices/[id].tsx) that calls the existing `/api/invoices/:id/pdf` endpoint",
    category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> support webhooks for order events (order.created, order.paid, order.refunded): HMAC-SHA256 signature header, retries with exponential backoff (max 5), a delivery log table and an admin endpoint to replay deliveries. Put it under src/webhooks/',
    category: 'feature', complexity: 'complex', verdict: 'well-formed', missing: [],
  },
  { text: "<@U0BOT> i'd like a slack notification when a deploy fails", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  {
    text: '<@U0BOT> build a CSV import for contacts: upload on /contacts/import, validate emails, dedupe by email, show a summary of created/skipped rows. Follow the products import (src/imports/products/)',
    category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: "<@U0BOT> let's add multi-tenancy to the whole platform", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  {
    text: '<@U0BOT> add a `created_by` column to the `projects` table (migration in db/migrations/, model in src/models/project.ts) and fill it from the session user on create',
    category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> port the whole frontend to Svelte', category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: '<@U0BOT> add caching', category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: '<@U0BOT> Rebuild our entire mobile app from scratch in Flutter', category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  {
    text: '<@U0BOT> expose `GET /v1/users/:id/preferences` returning the JSON stored in `user_preferences`; reuse the handler style in src/api/v1/users.ts. 404 if none',
    category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> add i18n', category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  {
    text: '<@U0BOT> add a health check endpoint GET /healthz that returns 200 and the build sha. see how /version is done in src/server/routes.ts',
    category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> rewrite the entire app in Go, the node version is too slow', category: 'feature', complexity: 'complex', verdict: 'unrealistic' },

  // code-review
  {
    text: '<@U0BOT> review <https://github.com/acme/web/pull/1207> — focus on the caching changes and possible race conditions. bullet list of findings pls',
    category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> pls review my PR', category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: '<@U0BOT> review PR #88', category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['focus-areas', 'output-format'] },
  {
    text: '<@U0BOT> can you do a security review of src/auth/ before we ship? look for injection, token handling, missing authz checks. Severity High/Medium/Low, markdown',
    category: 'code-review', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> look over 9f3c2ab1 and tell me if anything looks off',
    category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['focus-areas', 'output-format'],
  },
  {
    text: '<@U0BOT> Review: PR #300 (acme/payments)\nFocus: idempotency of the refund handler, error handling\nFormat: inline comments + a summary with Critical/Major/Minor',
    category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> code review plz 👀', category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  {
    text: '<@U0BOT> quick sanity check on the diff in PR #1502 pls — mainly the SQL in src/reports/revenue.sql',
    category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['output-format'],
  },
  {
    text: '<@U0BOT> review this <https://github.com/acme/api/pull/77|acme/api#77> focusing on perf, report as a markdown checklist',
    category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> Please review the changes on branch feature/new-onboarding against main. Focus: accessibility + copy. Output: markdown list grouped by file',
    category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [],
  },

  // data-analysis
  {
    text: '<@U0BOT> how many users signed up per week in Q3? data is in exports/users.csv. Table + line chart',
    category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> analyze the data', category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: '<@U0BOT> pull some numbers on churn', category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  {
    text: "<@U0BOT> *Task:* weekly retention cohorts for users who signed up in 2026\n*Data:* `analytics.events` table in BigQuery (event = 'login')\n*Output:* heatmap PNG + markdown table, cohorts as rows",
    category: 'data-analysis', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> compare conversion rate between the old and new pricing page from data/ab_test_results.csv, and tell me if the difference is significant (p < 0.05)',
    category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> give me a summary of the logs', category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  {
    text: '<@U0BOT> build a notebook (notebooks/sales.ipynb) that reads the warehouse `sales.orders` table and plots revenue by region and month, with a filter for product line. should be re-runnable daily',
    category: 'data-analysis', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> which customers had more than 3 failed payments last month? query the payments db (read replica) and give me a CSV with customer id, email, count',
    category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> find interesting patterns in our data 📊', category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  {
    text: '<@U0BOT> analyse logs/access-2026-10-01.log: top 20 IPs by request count, 5xx ratio per hour, slowest endpoints (p95). markdown',
    category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> what's our average order value by country for September? orders table in postgres (`analytics` schema). a plain markdown table is fine",
    category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [],
  },

  // web-scraping
  {
    text: '<@U0BOT> scrape product names and prices from https://shop.example.com/catalog (all pages). max 2 req/s, retry 3x on 5xx, log skipped pages, output products.csv',
    category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> scrape competitor prices', category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  {
    text: '<@U0BOT> write a crawler for docs.example.dev that collects every page title + URL into a JSON file',
    category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'],
  },
  {
    text: '<@U0BOT> can you grab the list of speakers from https://conf.example.org/2026/speakers and put it in a markdown table? one page only',
    category: 'web-scraping', complexity: 'simple', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'],
  },
  {
    text: '<@U0BOT> Task: collect all open job postings from the Greenhouse boards of acme, globex and initech (https://boards.greenhouse.io/<company>)\nRate limit: 1 req/s\nError handling: retry twice, then skip and record the company in failures.json\nLogging: one line per request with status\nOutput: jobs.jsonl',
    category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> scrape the reviews from our App Store page (https://apps.apple.com/app/id123) — throttle to 1 request every 2 seconds, back off on 429, log progress every 100 reviews',
    category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> build a scraper', category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  {
    text: '<@U0BOT> pull all the pricing tables off competitor sites and keep it updated daily',
    category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'],
  },
  {
    text: '<@U0BOT> scrapeee the hn front page for posts about rust',
    category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'],
  },
  {
    text: '<@U0BOT> scrape https://example.gov/press-releases every morning and post new titles to #news. be polite: 1 req/5s, retry on timeout, log errors',
    category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [],
  },

  // refactoring
  {
    text: '<@U0BOT> refactor src/billing/invoice.ts: extract the tax calculation (lines 120-210) into `computeTax()` in src/billing/tax.ts, no behaviour change, tests must still pass',
    category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> this code is a mess, tidy it up', category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  {
    text: '<@U0BOT> convert the callbacks in src/legacy/*.js to async/await — there are 14 files. keep exports the same',
    category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> rename `getUsr` to `getUser` everywhere (it's used in ~30 places)",
    category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: '<@U0BOT> move all the date helpers from src/utils/index.ts into src/utils/date.ts and update the imports',
    category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> refactor the payment module', category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['success-criteria'] },
  {
    text: '<@U0BOT> migrate from moment.js to date-fns across the web app (web/src/), ~40 imports. no behaviour change, snapshot tests must pass',
    category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> split the monolith into microservices', category: 'refactoring', complexity: 'complex', verdict: 'unrealistic' },
  {
    text: '<@U0BOT> DRY up the three copies of the retry helper (src/a/retry.ts, src/b/retry.ts, src/c/retry.ts) into src/lib/retry.ts',
    category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> make the code cleaner', category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  {
    text: '<@U0BOT> Replace our hand-rolled `deepClone` in src/utils/clone.ts with `structuredClone` (Node 17+). Keep the same export name',
    category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [],
  },

  // incident-triage
  {
    text: '<@U0BOT> triage: checkout-api p99 latency went from 300ms to 4s at 14:05 UTC, DB CPU at 95%. deploy of 3.8.1 at 13:58. repo acme/checkout',
    category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> :rotating_light: prod is down', category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  {
    text: "<@U0BOT> we're getting paged for high error rates on the payments service since ~09:20, mostly `StripeConnectionError: timeout` in the logs. Nothing deployed today. Investigate?",
    category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> incident INC-2231: orders stuck in 'pending' since midnight, queue depth on `order-events` at 120k and growing. consumer in services/order-worker/. what's going on?",
    category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> help!! site down', category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: '<@U0BOT> triage', category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  {
    text: '<@U0BOT> Multiple services (auth, billing, search) are returning 503s across all regions since the 12:10 UTC network change. Need root cause + mitigation steps',
    category: 'incident-triage', complexity: 'complex', verdict: 'well-formed', missing: [],
  },
  {
    text: "<@U0BOT> alerts firing for disk usage on db-primary-2 (92%), started after last night's backfill job. what should we do?",
    category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [],
  },
  { text: '<@U0BOT> something weird is happening in prod 😬', category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  {
    text: '<@U0BOT> [PagerDuty] P1 - High 5xx rate on api-gateway (>15% for 10 min)\nService: api-gateway\nRepo: acme/gateway',
    category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [],
  },

  // second and third batches, written before the reader was tuned on them
  { text: "<@U0BOT> hey can you write tests for the `useDebounce` hook in web/src/hooks/useDebounce.ts? use fake timers", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> our test coverage is terrible, fix it", category: 'testing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'location', 'success-criteria'] },
  { text: "<@U0BOT> add a test that reproduces issue #77 (empty cart total shows NaN) in test/cart/total.test.ts, mark it .fails until fixed", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Write load tests for POST /api/search with k6: ramp to 200 rps over 5 min, report p95/p99 and error rate. Put scripts under load/", category: 'testing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> the signup form lets you submit an empty email, it should show 'Email is required'. form is in web/src/pages/signup.tsx", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> orders page is slow af", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: "<@U0BOT> prices show 2 decimals in the cart but 3 in the invoice email (e.g. 19.990). should be 2 everywhere. see src/money/format.ts", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> since upgrading to prisma 5 our `findMany` calls with `distinct` return duplicates. repro: `npm run repro:distinct`. repo acme/core, code in packages/db/src/queries.ts", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> please fix the login issue", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  { text: "<@U0BOT> Error when saving a draft:\n```\nPrismaClientKnownRequestError: Unique constraint failed on the fields: (`slug`)\n    at saveDraft (src/posts/drafts.ts:88:11)\n```\nTwo drafts with the same title should get slugs `title` and `title-2`.", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> add a `GET /api/orders/:id/invoice` endpoint that returns the invoice PDF. use the existing `renderInvoice()` from src/invoices/render.ts", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> we should have a chat feature", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> Let users upload a profile picture.\nRequirements:\n- max 2 MB, png/jpg only\n- store in S3 via src/storage/s3.ts\n- show it in the header avatar\n- resize to 256x256\nSuccess criteria: upload + display covered by tests", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> add a `--since` flag to the export CLI (src/cli/export.ts) that filters rows by created_at, like `--until`", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> build something cool", category: 'feature', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> rewrite our whole python backend in typescript so we have one language", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> add search", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> review PR #1433 pls. mostly worried about the new SQL migrations (locking on big tables). comments inline on the PR", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> can someone review?", category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> give me feedback on https://github.com/acme/mobile/pull/58", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['focus-areas', 'output-format'] },
  { text: "<@U0BOT> summarize signups by acquisition channel for the last 30 days from the `signups` table (analytics db). bar chart + table", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> what do the numbers say?", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> analyze data/support_tickets.csv", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['success-criteria'] },
  { text: "<@U0BOT> Task: find out why conversion dropped in October\nData: events in exports/events-2026-10.jsonl and exports/events-2026-09.jsonl\nOutput format: short markdown report with the 3 biggest drop-off steps and a chart", category: 'data-analysis', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> scrape https://news.example.com headlines every hour into headlines.csv", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'] },
  { text: "<@U0BOT> crawl the web for mentions of our brand", category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> write a scraper for https://www.example-realty.com/listings: address, price, bedrooms. 1 request per second max, skip listings that 404, log each failed URL. store results in data/listings.json", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> refactor `OrderService` in src/orders/service.ts into smaller classes (pricing, fulfilment, notifications) — keep the public methods, all tests must pass", category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> replace all `var` with `let`/`const` in src/legacy/util.js", category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> simplify stuff", category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> convert the whole codebase from JavaScript to TypeScript", category: 'refactoring', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> extract the email templates from src/mailer/index.ts into separate files under src/mailer/templates/, no output changes (snapshot tests must pass)", category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> triage: login failures spiked to 30% at 08:15 UTC, users get 'invalid session' right after logging in. auth-service deployed v4.2.0 at 08:10", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> we have an outage, help", category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: "<@U0BOT> :fire: checkout returning 502s for ~20% of requests since 11:02, started right after the nginx config change (PR #2201). what's the likely cause and can we roll back safely?", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> pager went off for the billing worker: `ECONNRESET` from the Stripe client, retry queue at 5k jobs. repo acme/billing", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },

  { text: "<@U0BOT> could you cover `applyDiscount` (src/pricing/discount.ts) with unit tests? edge cases: 0%, 100%, stacking two coupons, expired coupon", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> we need better tests", category: 'testing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'location', 'success-criteria'] },
  { text: "<@U0BOT> *Tests for the webhook receiver*\n*Location:* src/webhooks/receiver.ts\n*Cases:*\n1. valid signature → 200\n2. bad signature → 401\n3. replayed event id → 409\n*Done when:* `npm test` passes", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> the export button on /reports downloads an empty file for date ranges longer than 31 days. code: web/src/reports/ExportButton.tsx + src/api/reports/export.ts", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> bug in search", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  { text: "<@U0BOT> `parseDuration(\"1h30m\")` returns 90 instead of 5400 (it returns minutes, callers expect seconds). src/time/duration.ts. fix + add test cases", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Users in Australia see tomorrow's date on their receipts. I think it's the timezone handling in `formatReceiptDate` (src/receipts/date.ts line 14) which uses the server TZ instead of the user's.", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> the CI is red 😭 pls fix", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  { text: "<@U0BOT> add an \"Archive\" action to projects: a button in the project settings page (web/src/pages/projects/settings.tsx), PATCH /api/projects/:id with {archived: true}, hide archived projects from the sidebar list. Follow how \"Rename\" works.", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> add billing", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> implement OAuth login with Google and GitHub, account linking by email, and a migration for existing password users", category: 'feature', complexity: 'complex', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> support `?sort=price_asc|price_desc` on GET /api/products (src/api/products.ts), default stays newest-first", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Re-architect the event pipeline to use Kafka instead of our Redis queues across all services", category: 'refactoring', complexity: 'complex', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> please review <https://github.com/acme/infra/pull/412|this terraform change>, esp. IAM permissions and anything that could cause downtime", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['output-format'] },
  { text: "<@U0BOT> review the latest changes", category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> audit packages/auth for OWASP top 10 issues, list findings as a markdown table with severity (Critical/High/Medium/Low) and file:line", category: 'code-review', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> plot daily active users for the last 90 days from exports/dau.csv and flag any day that drops more than 20% vs the 7-day average", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> insights pls", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> build a weekly revenue report pipeline: read the Stripe export (data/stripe/*.csv), compute MRR, churned MRR and expansion, output markdown + CSV to reports/", category: 'data-analysis', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> scrape all github repos", category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> collect the title, price and rating of every book on https://books.toscrape.com (50 pages) into books.csv — 1 req/sec, retry failed pages twice, log what you skip", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> write a script that downloads the daily exchange rates from https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml and saves them to rates.json", category: 'web-scraping', complexity: 'simple', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'] },
  { text: "<@U0BOT> tidy up src/utils/strings.ts", category: 'refactoring', complexity: 'simple', verdict: 'ill-formed', missing: ['success-criteria'] },
  { text: "<@U0BOT> inline the `isProd()` helper (src/config/env.ts) at its 4 call sites and delete it. no behaviour change", category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> rewrite everything", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> triage: api latency", category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: "<@U0BOT> 🚨 SEV2: webhooks to Shopify failing with 401 since 07:40 UTC, ~3k events queued. we rotated the Shopify API secret this morning. repo acme/integrations", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> our Postgres primary is at 100% CPU and the app is timing out, can you figure out which query is responsible? repo acme/web", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  // fourth batch
  { text: "<@U0BOT> make it better", category: 'feature', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> clean up the code", category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> Rewrite the entire system as microservices", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> there's an exception on line 88 of src/jobs/cleanup.ts when the bucket is empty: `TypeError: items is not iterable`. should just do nothing", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> build a scraper for https://jobs.example.com (max 2 req/s, retry on 5xx with backoff, log every failed url) that saves postings to postings.jsonl", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> scrape https://example.com/blog posts into blog.json at 1 request per second", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['error-handling', 'logging'] },
  { text: "<@U0BOT> review acme/api#512 — focus: error handling in the new retry logic. markdown with Critical/High/Medium/Low", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> look at my changes and tell me what you think", category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> unit tests for src/lib/retry.ts please: success on first try, success after 2 failures, gives up after maxAttempts, respects backoff", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Add tests.", category: 'testing', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'location'] },
  { text: "<@U0BOT> our onboarding emails go out twice for users who sign up via Google. Started after PR #1290. The sender is src/onboarding/sendWelcome.ts", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> the date picker is buggy", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: "<@U0BOT> add a CSV export to the users admin page", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> add user accounts", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> add a `maxRetries` option (default 3) to `createClient()` in src/http/client.ts and pass it through to `withRetry`", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> get me the top 10 customers by lifetime value from data/customers.parquet, with their signup month", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> crunch the numbers from last quarter", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> extract `validateAddress` and `normalizeAddress` from src/checkout/index.ts into src/checkout/address.ts, re-export them from index.ts so imports keep working", category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> refactor everything to use dependency injection", category: 'refactoring', complexity: 'complex', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> triage: 5xx spike on /checkout since 16:20 UTC (from 0.1% to 6%), only in eu-west-1. nothing deployed. repo acme/shop", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> I got paged, no idea what's going on", category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: "<@U0BOT> Observed problem: the nightly backup job exits with code 137 since Tuesday.\nExpected: backup finishes in ~40 min.\nLocation: infra/backup/run.sh\nSuspect commits: 4e1f9c2", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  // fifth batch
  { text: "<@U0BOT> :memo: *Task:* add pagination to GET /api/invoices (src/api/invoices.ts)\n*Requirements:*\n1) `limit` (default 50, max 200) and `cursor` query params\n2) return `nextCursor`\n3) same approach as src/api/orders.ts\n*Success criteria:* tests for first page, last page, invalid cursor", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Steps to reproduce:\n1. log in as a viewer\n2. open /projects/42/settings\n3. click Delete\nExpected: 403\nActual: the project is deleted 😱\nCode: src/api/projects/delete.ts", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> write tests", category: 'testing', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'location'] },
  { text: "<@U0BOT> the `slugify` tests in test/utils/slug.test.ts fail on Windows because of path separators, make them platform-independent", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> implement notifications", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> can you rebuild the entire frontend in React? angular is dead", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> hey, could you take a look at PR #77 in acme/web? Mostly the new caching layer — is the invalidation right? A short summary in the thread is enough.", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> review the code", category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> how did the new onboarding affect activation? compare signups before/after Oct 1 using exports/activation.csv, by platform. markdown table pls", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> I need a report on revenue", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> scrape all the recipes from https://cooking.example.com/recipes (~3000 pages): title, ingredients, cook time. Keep it under 1 req/s, retry 429/5xx with backoff, log failures to scrape-errors.log, write recipes.jsonl", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> the 900-line `processOrder` function in src/orders/process.ts is unreadable. break it into smaller functions (validate, price, reserve stock, charge, notify) without changing behaviour; tests in test/orders/ must stay green", category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> modernize the codebase", category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> switch the logger in src/server.ts from console.log to pino (already a dependency), same messages, json output", category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> triage pls: Sidekiq-style retry storm — the email worker is retrying 40k jobs/min since 03:00, Redis memory at 90%. repo acme/mailer", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Fix flaky test", category: 'testing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'location'] },
  { text: "<@U0BOT> In src/auth/session.ts `refreshToken()` never refreshes because `expiresAt` is compared in seconds vs ms. Fix it so sessions renew 5 min before expiry.", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  // sixth batch
  { text: "<@U0BOT> Hi! Quick one: in src/components/Price.tsx the discount badge shows \"-0%\" when there's no discount. It shouldn't render at all in that case. Thanks 🙏", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> hello, pls help, the api is not working", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  { text: "<@U0BOT> Could you please write some tests for our new `InvoiceCalculator` class (src/billing/InvoiceCalculator.ts)? Especially the VAT rounding and the multi-currency paths. We use jest.", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> i want users to be able to reset their password", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Add an admin dashboard", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> add `X-Request-Id` to every log line in the API (src/middleware/logging.ts), generate one if the header is missing", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> look through https://github.com/acme/sdk/pull/301 and flag anything that breaks backwards compatibility for existing callers. list per file", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> do a code review of the whole repo", category: 'code-review', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> Which 5 endpoints had the highest p95 latency last week? Use the access logs in s3://acme-logs/2026/10/ (or the local copy in data/access/). Table with endpoint, p95, request count.", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> analyze user behavior", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> monitor competitor prices daily", category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> scrape https://status.example-cloud.com every 5 minutes and post to #ops when any component is not 'Operational'. one request per run, log each check", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['error-handling'] },
  { text: "<@U0BOT> our utils folder is a dumping ground, can you reorganise src/utils/ into domain folders (dates, money, strings) and fix all the imports? no logic changes", category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> improve performance", category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> rewrite the backend in Elixir", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> 🔥🔥 payments failing for all EU customers since 09:12 UTC, Adyen returns `422 Unprocessable Entity` on every authorise call. Nothing deployed on our side. repo acme/payments", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> incident!!", category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  { text: "<@U0BOT> why is the build failing?", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  // seventh batch
  { text: "<@U0BOT> add unit tests for the currency conversion in src/fx/convert.ts, mock the rates API like we do in test/fx/rates.test.ts", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> we have zero tests for the billing module, can you set up a test suite (vitest) and cover the main flows: create invoice, apply credit, void invoice? code is in src/billing/", category: 'testing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> need more e2e coverage", category: 'testing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'location'] },
  { text: "<@U0BOT> search returns no results when the query has a trailing space. e.g. \"shoes \" → 0 results, \"shoes\" → 120. search handler: src/search/query.ts `buildQuery`", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> notifications are broken", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  { text: "<@U0BOT> Intermittent 500s on POST /api/orders (maybe 1 in 200). Logs show `deadlock detected` from Postgres. Probably the inventory reservation in src/orders/reserve.ts. Can you fix it?", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> add rate limiting", category: 'feature', complexity: 'medium', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> Add a \"Copy link\" button next to each file in the file list (web/src/files/FileRow.tsx) that copies the share URL to the clipboard and shows a toast", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> build a Slack bot that answers HR questions", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> review PR 2231 please, security focus (it touches the JWT validation)", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['output-format'] },
  { text: "<@U0BOT> can you check if my code is ok", category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> How many orders were refunded in September, broken down by reason? Data: `orders` and `refunds` tables (postgres, analytics schema). Give me a small table.", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> make a chart", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> scrape every product page on https://store.example.net (sitemap at /sitemap.xml) and record name, sku, price, stock. be gentle (max 1 rps), skip 404s, write products.csv", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['logging'] },
  { text: "<@U0BOT> scrape twitter", category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> rename the `Customer` model to `Account` everywhere, including the DB table (migration) and the API responses", category: 'refactoring', complexity: 'complex', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> get rid of the lodash dependency, it's only used in 6 places in src/", category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> port everything to rust", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> triage: order confirmation emails not sent since 02:00 UTC. SendGrid dashboard shows 0 requests from us. the mailer worker is in services/mailer/. repo acme/shop", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> we're down!!!", category: 'incident-triage', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem'] },
  // eighth batch
  { text: "<@U0BOT> write a test for `parseCron` (src/scheduler/cron.ts) covering `*/5 * * * *`, `0 0 1 * *` and an invalid expression", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> increase test coverage", category: 'testing', complexity: 'simple', verdict: 'ill-formed', missing: ['target', 'location'] },
  { text: "<@U0BOT> the `UserAvatar` snapshot test keeps failing after the design tokens update, update the snapshots if the change is intended (web/src/components/__tests__/UserAvatar.test.tsx)", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> when I click \"Save\" on the profile page nothing happens and the console shows `Uncaught TypeError: onSave is not a function` (web/src/profile/ProfileForm.tsx)", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> users say the mobile app logs them out randomly", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['location'] },
  { text: "<@U0BOT> Fix: GET /api/reports/monthly returns last month's data on the 1st of the month (timezone issue?). handler in src/api/reports.ts, uses `startOfMonth` from src/lib/dates.ts", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> add support for custom domains", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> add an optional `note` field (max 500 chars) to the order form and store it in `orders.note` (migration + API + UI). See how `giftMessage` was added in PR #880", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> can you make the tooltip on the pricing page show the monthly price too? component: web/src/pricing/PlanTooltip.tsx", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> review https://github.com/acme/web/pull/2002 — we changed the session cookie settings, check for security regressions. Critical/Major/Minor please", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> thoughts on this approach?", category: 'code-review', complexity: 'simple', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> average time from signup to first purchase, by acquisition channel, for 2026 — use the `users` and `orders` tables. a table + a short summary", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> build a churn prediction model", category: 'data-analysis', complexity: 'complex', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> grab all the job titles from https://example.com/careers and put them in a spreadsheet", category: 'web-scraping', complexity: 'simple', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'] },
  { text: "<@U0BOT> we need to scrape some data", category: 'web-scraping', complexity: 'medium', verdict: 'ill-formed', missing: ['target'] },
  { text: "<@U0BOT> convert the class components in web/src/legacy/ (12 files) to function components with hooks. no visual changes", category: 'refactoring', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> the code in src/payments/ is hard to follow, make it better", category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['success-criteria'] },
  { text: "<@U0BOT> throw away the current backend and build a new one with NestJS", category: 'feature', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> triage: after the 14:00 deploy (v3.2.0) the iOS app crashes on launch for ~15% of users; Crashlytics points at `SessionStore.restore`. repo acme/ios", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  // ninth batch
  { text: "<@U0BOT> pls add tests for the new `/api/webhooks/stripe` handler (src/api/webhooks/stripe.ts): valid event, invalid signature, duplicate event id. we have a stripe fixture in test/fixtures/stripe/", category: 'testing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> tests are failing on main", category: 'testing', complexity: 'medium', verdict: 'ill-formed', missing: ['observed-problem', 'location'] },
  { text: "<@U0BOT> the \"forgot password\" email links point to localhost in production. template: src/emails/reset.tsx, base url comes from `APP_URL`", category: 'bug-fixing', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Problem: uploading a file > 10MB fails with `413 Request Entity Too Large`\nExpected: up to 50MB allowed\nLocation: nginx config in infra/nginx/app.conf and the multer limit in src/upload/middleware.ts", category: 'bug-fixing', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> it doesn't work", category: 'bug-fixing', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'observed-problem', 'location'] },
  { text: "<@U0BOT> add a webhook that notifies our Slack when a new enterprise signup happens (plan = enterprise). use the existing `notifySlack` helper in src/notify/slack.ts", category: 'feature', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> implement a recommendation engine", category: 'feature', complexity: 'complex', verdict: 'ill-formed', missing: ['scope'] },
  { text: "<@U0BOT> Add a CLI command `wrench doctor` that checks Redis, git and credentials and prints what to fix", category: 'feature', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> Review the diff between v1.4.0 and v1.5.0 for breaking API changes", category: 'code-review', complexity: 'medium', verdict: 'well-formed', missing: ['output-format'] },
  { text: "<@U0BOT> PR #3141 ready for review 🙏 mainly want eyes on the migration", category: 'code-review', complexity: 'simple', verdict: 'well-formed', missing: ['output-format'] },
  { text: "<@U0BOT> what's the median response time per endpoint from logs/api-2026-11-02.jsonl? top 10 slowest as a table", category: 'data-analysis', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> dig into our sales data and tell me something useful", category: 'data-analysis', complexity: 'simple', verdict: 'ill-formed', missing: ['success-criteria'] },
  { text: "<@U0BOT> scrape the prices of these 3 products every day: https://shop-a.example.com/p/1 https://shop-b.example.com/p/9 https://shop-c.example.com/item/77 — append to prices.csv, log errors", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['rate-limit', 'error-handling'] },
  { text: "<@U0BOT> crawl our docs site and find broken links", category: 'web-scraping', complexity: 'medium', verdict: 'well-formed', missing: ['rate-limit', 'error-handling', 'logging'] },
  { text: "<@U0BOT> move the config loading out of src/index.ts into src/config/load.ts and make it testable (inject env). behaviour must stay the same", category: 'refactoring', complexity: 'simple', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> refactor for performance", category: 'refactoring', complexity: 'medium', verdict: 'ill-formed', missing: ['target', 'success-criteria'] },
  { text: "<@U0BOT> migrate our entire infrastructure from AWS to GCP", category: 'refactoring', complexity: 'complex', verdict: 'unrealistic' },
  { text: "<@U0BOT> P1: login page returns 503 for everyone since 10:31 UTC, health checks failing on auth-service pods. repo acme/auth", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
  { text: "<@U0BOT> can you look into the outage from this morning? PagerDuty incident PD-8812, payments API 5xx from 06:10 to 06:40 UTC. repo acme/payments. need a timeline + root cause", category: 'incident-triage', complexity: 'medium', verdict: 'well-formed', missing: [] },
];
