import type { Category } from '../categories.js';

/** A question for one missing element, with an example answer (commands, paths and URLs in it as they are). */
export interface Ask {
  question: string;
  placeholder?: string;
}

/**
 * The rules' questions for what an instruction is missing, in English: the source the thread catalogues
 * (src/slack/strings/) translate. `subject` is the request's own words.
 */
export const clarifyingEn = {
  target: {
    testing: {
      question: 'What should the tests cover? Name the module, function or behaviour to test.',
      placeholder: '`formatBytes` in src/lib/format.ts: 0, 1023, 1024, negative input',
    },
    'code-review': {
      question: 'What should I review? Give a PR number or link, a branch, or the files.',
      placeholder: 'PR #123 in acme/api',
    },
    'data-analysis': {
      question: 'Which data should I analyse? Give the file, table or export.',
      placeholder: 'data/orders-2026-09.csv',
    },
    'web-scraping': {
      question: 'Which sites or pages should I collect from? Give the URLs, and what to collect from each.',
      placeholder: 'https://example.com/pricing: plan name, monthly price, currency',
    },
    refactoring: {
      question: 'Which code should I refactor? Name the files, module or functions.',
      placeholder: 'src/api/handlers.ts',
    },
    'bug-fixing': {
      question: 'Which part of the product is affected?',
      placeholder: 'the checkout page, when paying with a saved card',
    },
    feature: {
      question: 'What exactly should I build, and where does it go?',
      placeholder: 'a `--json` flag for the `status` command in src/cli/status.ts',
    },
    question: {
      question: 'What would you like to know about the code? Name the feature, file or behaviour.',
      placeholder: 'where the rate limit for /search is configured',
    },
    'incident-triage': {
      question: 'Which service or system is affected?',
      placeholder: 'search-api (repo acme/search)',
    },
  } as Record<Category, Ask>,
  failingTests: {
    question: 'How do the tests fail? Paste the failing test names and the assertion or error output.',
    placeholder: 'test/cart/total.test.ts "applies coupon" fails on main: expected 10, received 9.99',
  } as Ask,
  incidentSymptoms: {
    question: 'What are you seeing? Which service, since when, and which symptoms (error rate, status codes, alerts, a recent deploy)?',
    placeholder: 'checkout-api: 502s on POST /orders since 14:05 UTC, right after release 3.4.1',
  } as Ask,
  observedProblem: {
    question: 'What exactly goes wrong? Paste the error message or stack trace, say what you expected and what happened instead, and how to reproduce it.',
    placeholder: 'Expected: one charge per order. Actual: a double click on "Pay" charges the card twice.',
  } as Ask,
  codeToTest: { question: 'Where is the code to test? Give the file or directory.', placeholder: 'src/lib/format.ts' } as Ask,
  location: {
    question: 'Where does it happen? Name the file, function, endpoint or page.',
    placeholder: 'src/payments/charge.ts, `createCharge` (POST /checkout)',
  } as Ask,
  rewriteScope: {
    question: 'A complete rewrite is too large for one task. Which single module or service should I start with, and what must it keep doing?',
    placeholder: 'the /search endpoint only, same API, existing tests must pass',
  } as Ask,
  scope: (subject: string): Ask => ({
    question: `${subject ? `"${subject}" is` : 'This is'} a large area. Which first, bounded piece should I build, and what is out of scope?`,
    placeholder: 'one checkout endpoint using Stripe Checkout, no refunds or subscriptions yet',
  }),
  requirements: { question: 'What must it do? List the requirements, one per line.', placeholder: '1. …\n2. …' } as Ask,
  analysisQuestions: {
    question: 'Which questions should the analysis answer? Name the metrics or breakdowns, and the output you want.',
    placeholder: 'revenue per day, top 10 products by revenue; a Markdown table and a bar chart PNG',
  } as Ask,
  refactoringGoal: {
    question: 'What should be different when it is done? Name concrete changes and the checks that must hold.',
    placeholder: 'one file per resource under src/api/handlers/, no behaviour change, existing tests pass',
  } as Ask,
  testsProve: {
    question: 'What should the tests prove? Name the cases or the coverage to reach.',
    placeholder: 'every exported function has a test; branch coverage of src/lib/ at least 90%',
  } as Ask,
  done: {
    question: 'How will we know it is done? Name a measurable result or the checks that must pass.',
    placeholder: 'the page loads in under 1 s with 1,000 rows; `npm test` passes',
  } as Ask,
  focusAreas: { question: 'What should the review focus on?', placeholder: 'SQL injection and auth checks in the new admin routes' } as Ask,
  findingsFormat: { question: 'How should I report the findings?', placeholder: 'Markdown, severity Critical/Major/Minor' } as Ask,
  outputFormat: { question: 'What format do you want the result in?', placeholder: 'a Markdown table plus a PNG chart' } as Ask,
  rateLimit: { question: 'How fast may I request pages?', placeholder: 'at most 1 request per second' } as Ask,
  errorHandling: { question: 'What should happen when a request fails or times out?', placeholder: 'retry twice with backoff, then skip the page' } as Ask,
  logging: { question: 'What should be logged?', placeholder: 'each failed URL with its status code and reason' } as Ask,
  /** An element the rules have no question of their own for ("success criteria"). */
  more: (element: string) => `Could you say more about the ${element}?`,
};

export type ClarifyingStrings = typeof clarifyingEn;
