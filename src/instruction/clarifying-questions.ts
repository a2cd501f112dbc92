import type { InstructionReading } from './instruction-types.js';
import type { Category } from '../categories.js';
import { ASK_PREFIX } from './sentences.js';

export interface ClarifyingQuestion {
  element: string;
  question: string;
  placeholder?: string;
}

type Asker = (reading: InstructionReading, subject: string) => Omit<ClarifyingQuestion, 'element'>;

const TARGET_QUESTIONS: Record<Category, Omit<ClarifyingQuestion, 'element'>> = {
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
  'incident-triage': {
    question: 'Which service or system is affected?',
    placeholder: 'search-api (repo acme/search)',
  },
};

const ASKERS: Record<string, Asker> = {
  target: (reading) => TARGET_QUESTIONS[reading.category],
  'observed-problem': (reading) =>
    reading.category === 'testing'
      ? {
          question: 'How do the tests fail? Paste the failing test names and the assertion or error output.',
          placeholder: 'test/cart/total.test.ts "applies coupon" fails on main: expected 10, received 9.99',
        }
      : reading.category === 'incident-triage'
        ? {
            question: 'What are you seeing? Which service, since when, and which symptoms (error rate, status codes, alerts, a recent deploy)?',
            placeholder: 'checkout-api: 502s on POST /orders since 14:05 UTC, right after release 3.4.1',
          }
        : {
            question:
              'What exactly goes wrong? Paste the error message or stack trace, say what you expected and what happened instead, and how to reproduce it.',
            placeholder: 'Expected: one charge per order. Actual: a double click on "Pay" charges the card twice.',
          },
  location: (reading) =>
    reading.category === 'testing'
      ? { question: 'Where is the code to test? Give the file or directory.', placeholder: 'src/lib/format.ts' }
      : {
          question: 'Where does it happen? Name the file, function, endpoint or page.',
          placeholder: 'src/payments/charge.ts, `createCharge` (POST /checkout)',
        },
  scope: (reading, subject) =>
    reading.verdict === 'unrealistic'
      ? {
          question: 'A complete rewrite is too large for one task. Which single module or service should I start with, and what must it keep doing?',
          placeholder: 'the /search endpoint only, same API, existing tests must pass',
        }
      : {
          question: `${subject ? `"${subject}" is` : 'This is'} a large area. Which first, bounded piece should I build, and what is out of scope?`,
          placeholder: 'one checkout endpoint using Stripe Checkout, no refunds or subscriptions yet',
        },
  requirements: () => ({
    question: 'What must it do? List the requirements, one per line.',
    placeholder: '1. …\n2. …',
  }),
  'success-criteria': (reading) => {
    if (reading.category === 'data-analysis') {
      return {
        question: 'Which questions should the analysis answer? Name the metrics or breakdowns, and the output you want.',
        placeholder: 'revenue per day, top 10 products by revenue; a Markdown table and a bar chart PNG',
      };
    }
    if (reading.category === 'refactoring') {
      return {
        question: 'What should be different when it is done? Name concrete changes and the checks that must hold.',
        placeholder: 'one file per resource under src/api/handlers/, no behaviour change, existing tests pass',
      };
    }
    if (reading.category === 'testing') {
      return {
        question: 'What should the tests prove? Name the cases or the coverage to reach.',
        placeholder: 'every exported function has a test; branch coverage of src/lib/ at least 90%',
      };
    }
    return {
      question: 'How will we know it is done? Name a measurable result or the checks that must pass.',
      placeholder: 'the page loads in under 1 s with 1,000 rows; `npm test` passes',
    };
  },
  'focus-areas': () => ({
    question: 'What should the review focus on?',
    placeholder: 'SQL injection and auth checks in the new admin routes',
  }),
  'output-format': (reading) =>
    reading.category === 'code-review'
      ? { question: 'How should I report the findings?', placeholder: 'Markdown, severity Critical/Major/Minor' }
      : { question: 'What format do you want the result in?', placeholder: 'a Markdown table plus a PNG chart' },
  'rate-limit': () => ({
    question: 'How fast may I request pages?',
    placeholder: 'at most 1 request per second',
  }),
  'error-handling': () => ({
    question: 'What should happen when a request fails or times out?',
    placeholder: 'retry twice with backoff, then skip the page',
  }),
  logging: () => ({
    question: 'What should be logged?',
    placeholder: 'each failed URL with its status code and reason',
  }),
};

/** One specific question per missing element, in the order the reading lists them. */
export function clarifyingQuestions(reading: InstructionReading): ClarifyingQuestion[] {
  if (reading.questions?.length) return reading.questions.map(({ element, question }) => ({ element, question }));
  const subject = subjectOf(reading.elements.task ?? '');
  return reading.missing.map((element) => {
    const asker = ASKERS[element];
    const asked = asker ? asker(reading, subject) : { question: `Could you say more about the ${element.replace(/-/g, ' ')}?` };
    return { element, ...asked };
  });
}

/** For an instruction too large to take on: a bounded piece to start with instead. */
export function scopedFirstStep(reading: InstructionReading, text: string): string {
  const plain = text
    .replace(/<[@#!][^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (reading.verdict === 'unrealistic') {
    const system =
      /\b(back[- ]?end|front[- ]?end|app|application|system|code ?base|platform|monolith|site|website|services|api)\b/i.exec(plain)?.[1] ?? 'system';
    const language = /\b(?:in|to|into|using)\s+([A-Z][\w#+.]*|go|rust|python|java|kotlin|typescript|elixir|scala)\b/i.exec(plain)?.[1];
    const target = language ? ` in ${language}` : '';
    return (
      `A complete rewrite of the ${system} is too large to do or verify in one task. ` +
      `Start with one self-contained piece instead: pick a single endpoint or background job of the ${system}, ` +
      `reimplement it${target} behind the same interface, keep its existing tests passing, ` +
      'and compare behaviour and performance before deciding on the next piece.'
    );
  }
  const subject = subjectOf(reading.elements.task ?? plain);
  if (reading.missing.includes('scope')) {
    return `Start with one bounded piece of ${subject || 'the work'}: a single endpoint, screen or flow, with what is out of scope stated, and tests for it.`;
  }
  return reading.elements.task ?? plain;
}

/** "add payments" → "payments": the object of the request, without the leading verb and politeness. */
function subjectOf(task: string): string {
  return task
    .replace(new RegExp(`^\\W*${ASK_PREFIX}`, 'i'), '')
    .replace(/^(?:add|implement|build|create|introduce|support|make|write|set up|rewrite|fix|review|refactor|analy[sz]e|scrape|test)\s+/i, '')
    .replace(/[.?!]+$/, '')
    .trim();
}
