import { describe, expect, it } from 'vitest';
import { renderTemplate, TEMPLATE_TOKENS, templateProblem } from './template.js';

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

  it('when {UnitPrice} is given, then it is filled as written; when not, the token is kept', () => {
    const tokens = { quantity: '250', unit: 'g', unitPrice: '€19.20/kg' };
    expect(renderTemplate('Grundpreis: {UnitPrice}', tokens)).toBe('Grundpreis: €19.20/kg');
    expect(renderTemplate('{UnitPrice}', { quantity: '250', unit: 'g' })).toBe('{UnitPrice}');
  });
});

describe('templateProblem', () => {
  const net = ['Quantity', 'Quantity_With_Space', 'Unit', 'Value'];
  it.each([
    ['{Price}/{Quantity}', TEMPLATE_TOKENS, undefined],
    ['Poids net', [], undefined],
    [
      '{Prce}/{Quantity}',
      TEMPLATE_TOKENS,
      'has an unknown token {Prce}; use {Price}, {Quantity}, {Quantity_With_Space}, {Unit}, {Value}, {UnitPrice}, {Dimensions} or {Percent}',
    ],
    [
      '{Price} for {Value} {Unit}',
      net,
      'cannot use {Price} here; use {Quantity}, {Quantity_With_Space}, {Unit} or {Value}',
    ],
    ['Weight in {Unit}', [], 'is shown as written and takes no tokens, but has {Unit}'],
    ['{Price/{Quantity}', TEMPLATE_TOKENS, "has a '{' at character 1 that is not part of a token"],
    ['{Price}}', TEMPLATE_TOKENS, "has a '}' at character 8 that is not part of a token"],
    ['{}', TEMPLATE_TOKENS, "has a '{' at character 1 that is not part of a token"],
  ])('when the text is %j, then the problem is %j', (text, allowed, expected) => {
    expect(templateProblem(text, allowed)).toBe(expected);
  });

  it('when a template has no problem, then renderTemplate fills every token it holds', () => {
    const text = '{Price} · {Quantity} · {Quantity_With_Space} · {Unit} · {Value}';
    expect(templateProblem(text, TEMPLATE_TOKENS)).toBeUndefined();
    expect(renderTemplate(text, { price: '€3.00', quantity: '1.5', unit: 'kg' })).toBe(
      '€3.00 · 1.5kg · 1.5 kg · kg · 1.5',
    );
  });
});
