import { describe, expect, it } from 'vitest';
import { scrapingRequirements } from '../../../src/agent/scraping-requirements.js';

describe('scrapingRequirements', () => {
  it('quotes the rate limit, retries and logging of the instruction exactly', () => {
    const instruction =
      'Write a scraper for https://shop.example.com/products: at most 1 request per second, retry failed requests 3 times with backoff, log each request with URL and status.';
    const requirements = scrapingRequirements(instruction, {
      rateLimit: 'at most 1 request per second',
      requirements: ['at most 1 request per second', 'retry failed requests 3 times with backoff', 'log each request with URL and status'],
    });
    expect(requirements[0]).toContain('Rate limit, exactly as the instruction states it: "at most 1 request per second"');
    expect(requirements[1]).toContain('"retry failed requests 3 times with backoff"');
    expect(requirements[1]).not.toContain('"at most 1 request per second"');
    expect(requirements[2]).toContain('"log each request with URL and status"');
    expect(requirements.at(-1)).toContain('127.0.0.1');
  });

  it('falls back to sentences, then to safe defaults', () => {
    const fromSentences = scrapingRequirements('Scrape the blog. Wait 2 seconds between requests. Log every failure.', {});
    expect(fromSentences[0]).toContain('"Wait 2 seconds between requests"');
    expect(fromSentences[2]).toContain('"Log every failure"');
    const defaults = scrapingRequirements('Scrape the titles of example.org into a CSV.', {});
    expect(defaults[0]).toContain('at most 1 request per second per host');
    expect(defaults[1]).toContain('exponential backoff');
  });
});
