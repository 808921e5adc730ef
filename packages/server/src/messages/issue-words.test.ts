import { describe, expect, test } from 'vitest';
import { errors } from '../errors.js';
import { errorInWords, issueInWords, placeInWords, ruleInWords } from './issue-words.js';

describe('validation issues in words', () => {
  test.each([
    [
      'must match pattern "^[0-9]{1,15}(\\.[0-9]{1,6})?$"',
      'must be an amount like 4.20: digits, with a dot before at most 6 decimals',
    ],
    ['must match pattern "^[a-z]+$"', 'is not written the way Tare expects it'],
    ['must be integer', 'must be a whole number, like 3'],
    ['must be > 0', 'must be more than 0'],
    ['must be >= 1', 'must be 1 or more'],
    ['must be <= 10000', 'must be 10000 or less'],
    ['must not have fewer than 1 characters', 'must not be empty'],
    ['must not have more than 100 characters', 'must be at most 100 characters long'],
    ['must be one of "number", "pills", "dropdown"', 'must be one of: number, pills, dropdown'],
    ['must be a numeric id string of 1 to 20 digits', 'must be a number of 1 to 20 digits, like 5001'],
    ['must match format "date-time"', 'must be a date and time like 2026-11-26T10:30:00Z'],
    ["unknown field 'pric'", 'is not a field Tare knows: check its spelling, or remove it'],
    ['is above the maximum 5', 'is above the maximum 5'],
  ])('%s → %s', (message, words) => {
    expect(ruleInWords(message)).toBe(words);
  });

  test('a field is named by its label, and a message naming its own subject stands as a sentence', () => {
    expect(issueInWords('Price', 'must be > 0')).toBe('Price must be more than 0');
    expect(issueInWords('Unit', "unit 'm' is not a weight unit")).toBe("Unit 'm' is not a weight unit");
    expect(issueInWords('Change', "unit 'ml' is not valid for variant 2003 (weight)")).toBe(
      "Change: unit 'ml' is not valid for variant 2003 (weight)",
    );
  });

  test('a JSON pointer is said as a place', () => {
    expect(placeInWords('/shops/0/products/1/variants/0/price')).toBe('Shop 1, product 2, variant 1, price');
    expect(placeInWords('/shops/0/settings/rateLimit/requestsPerMinute')).toBe(
      'Shop 1, settings, rate limit, requests per minute',
    );
    expect(placeInWords('/shops/0/products/0/variants/0/inventory/2/quantity')).toBe(
      'Shop 1, product 1, variant 1, level 3, quantity',
    );
    expect(placeInWords('/a~1b')).toBe('A/b');
    expect(placeInWords('')).toBe('The request');
  });

  test('a validation error is said issue by issue; any other error keeps its message', () => {
    const refused = errors.validation([
      { path: '/email', message: 'must match format "email"' },
      { path: '/name', message: 'must not have fewer than 1 characters' },
    ]);
    expect(errorInWords(refused)).toBe('Email must be an email address, like ana@example.com. Name must not be empty.');
    expect(errorInWords(errors.badRequest('Reload the page.'))).toBe('Reload the page.');
  });
});
