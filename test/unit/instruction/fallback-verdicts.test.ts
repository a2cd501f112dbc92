import { describe, expect, it } from 'vitest';
import { readInstruction } from '../../../src/instruction/read-instruction.js';

/** Clear tasks the rules alone must let through: the code answers where, the text says what and when. */
const CLEAR = [
  'clicking run twice fast causes crash',
  'the export button does nothing on Safari',
  'add tests for password reset',
  'Login fails with 500 when the email has a plus sign',
  'add a --verbose flag to the deploy command',
  'search results show deleted products',
  "dark mode toggle doesn't persist after reload",
  'write tests for the invoice PDF generator',
  'the signup form accepts emails without @',
  'make the date picker start weeks on Monday',
  'the app crashes on startup since the last update',
  'Uploading a 0-byte file shows a spinner forever',
  'Emails are sent twice when a user resets the password',
  'users say the mobile app logs them out randomly',
  'the price filter ignores the max value',
  'Our invoice numbers skip from 1009 to 1011',
  'upgrade lodash to 4.17.21 and fix what breaks',
  'Log the request id on every error in the API',
  'Add pagination to the admin audit log',
  'look at why the nightly backup job exits with code 137 and fix it',
  'the search box loses focus after each keystroke',
  'Handle the case where the user has no email address in the welcome mailer',
  'Uploads larger than 2 GB fail silently',
  'Translate the error messages in the checkout into French',
  'When a deploy fails, post the failing step and a link to its log in #deploys',
  'If the payment provider times out, retry twice and then show a friendly error',
  'the save button does nothing in Firefox, works in Chrome',
  'users get signed out whenever they open a second tab',
  'Clean up the config loading so every service reads one file instead of five',
];

/** Vague asks the rules alone hold back. */
const VAGUE = [
  'fix the bug',
  'login is broken',
  'the page is broken when I scroll',
  'clean up the code so it is nicer',
  'add some tests',
  'improve performance',
  'review my code',
  'scrape some websites',
  'analyze the data',
  'add authentication',
  'something is off with payments',
  'there is a problem with the API',
  'make the dashboard better',
  'the tests are failing',
  'add missing unit tests, aim for coverage above 90%',
  'the checkout is acting weird again',
  'can you help with the deployment',
  'look at the memory usage',
  'implement the new design',
  'Add the feature we discussed',
  'do the thing from the ticket',
  'make onboarding smoother',
  'add support for custom domains',
  '[Sentry] TypeError: Cannot read properties of undefined (reading "id")\nhttps://sentry.io/organizations/acme/issues/123/',
  '点击按钮时应用崩溃\n复现步骤（请补充具体操作）：\n1. 打开应用\n2. 点击按钮',
];

/**
 * What the ask is, from general cues: a condition leading an order, how things are now leading an order, a symptom
 * seen only somewhere, a statistic asked of a file.
 */
const CATEGORIES: Array<[string, string]> = [
  ['When a deploy fails, post the failing step and a link to its log in #deploys', 'feature'],
  ['If the payment provider times out, retry twice and then show a friendly error', 'feature'],
  ['the report groups by week, show it per day', 'feature'],
  ['When I press save the page crashes', 'bug-fixing'],
  ['the save button does nothing in Firefox, works in Chrome', 'bug-fixing'],
  ["What's the p99 latency per endpoint in logs/gateway-may.log? Give me a table sorted by p99.", 'data-analysis'],
];

describe('the rules alone, when the model is slow or absent', () => {
  it.each(CATEGORIES)('read %j as %s', (text, category) => {
    expect(readInstruction(text).category).toBe(category);
  });

  it.each(CLEAR)('let the clear task %j through', (text) => {
    expect(readInstruction(text)).toMatchObject({ verdict: 'well-formed' });
  });

  it.each(VAGUE)('hold back the vague ask %j', (text) => {
    expect(readInstruction(text).verdict).toBe('ill-formed');
  });

  it("ask where only alongside another gap, or for an error tracker's report that gives nothing but the error", () => {
    expect(readInstruction('dates are wrong').missing).toEqual(['observed-problem', 'location']);
    expect(readInstruction('clicking run twice fast causes crash').missing).toEqual([]);
    expect(readInstruction('[Sentry] TypeError: x is undefined\nhttps://sentry.io/issues/1/').missing).toEqual(['location']);
  });
});
