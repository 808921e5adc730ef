import { describe, expect, it } from 'vitest';
import { renderTemplate } from './template.js';

describe('renderTemplate', () => {
  it.each([
    ['1', '/kg'],
    ['1.000', '/kg'],
    ['01', '/kg'],
    ['2.50', '/2.5kg'],
    ['007.250', '/7.25kg'],
    ['-0.0', '/0kg'],
    ['-1.5', '/-1.5kg'],
    ['1e3', '/1e3kg'],
  ])('when the quantity is %j, then /{Quantity} renders %j', (quantity, expected) => {
    expect(renderTemplate('/{Quantity}', { quantity, unit: 'kg' })).toBe(expected);
  });
});
