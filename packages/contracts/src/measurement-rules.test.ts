import { describe, expect, it } from 'vitest';
import { checkMeasurementRules, type MeasurementRules, onlineStoreIssues } from './measurement-rules.js';

const rules = (min: number, increment: number, defaultValue: number, max: number | null): MeasurementRules => ({
  min,
  increment,
  defaultValue,
  max,
});
const numberStyle = (r: MeasurementRules) => ({ displayStyle: 'number', rules: r });

describe('onlineStoreIssues: number style', () => {
  it.each([
    ['a default on the grid from min', rules(100, 50, 250, null)],
    ['a default equal to min and max', rules(0.25, 0.25, 0.25, 0.25)],
    ['a min of 0 and a decimal step', rules(0, 0.1, 0.3, 10)],
    ['a max off the grid', rules(1, 1, 2, 2.5)],
  ])('when the rules have %s, then there is no issue', (_, r) => {
    expect(onlineStoreIssues(numberStyle(r))).toEqual([]);
  });

  it.each([
    [
      'a default off the grid (225 from 100 by 50)',
      rules(100, 50, 225, null),
      [{ path: '/rules/defaultValue', message: '225 is not a multiple of the increment 50 from 100' }],
    ],
    ['a default above max', rules(1, 1, 6, 5), [{ path: '/rules/defaultValue', message: '6 is above the maximum 5' }]],
    [
      'a default below min',
      rules(0.25, 0.25, 0.1, null),
      [
        { path: '/rules/defaultValue', message: '0.1 is below the minimum 0.25' },
        { path: '/rules/defaultValue', message: '0.1 is not a multiple of the increment 0.25 from 0.25' },
      ],
    ],
    [
      'max below min',
      rules(2, 1, 2, 1),
      [
        { path: '/rules/max', message: '1 is below the minimum 2' },
        { path: '/rules/defaultValue', message: '2 is above the maximum 1' },
      ],
    ],
    [
      'a zero step, a negative min, a zero default and a zero max',
      rules(-1, 0, 0, 0),
      [
        { path: '/rules/min', message: 'must be a number >= 0' },
        { path: '/rules/increment', message: 'must be a number > 0' },
        { path: '/rules/defaultValue', message: 'must be a number > 0' },
        { path: '/rules/max', message: 'must be a number > 0 or null' },
      ],
    ],
    [
      'a step that is not finite',
      rules(0, Infinity, 1, null),
      [{ path: '/rules/increment', message: 'must be a number > 0' }],
    ],
  ])('when the rules have %s, then every issue is named at its path', (_, r, issues) => {
    expect(onlineStoreIssues(numberStyle(r))).toEqual(issues);
  });

  it('when the number style has no rules, then the rules are required', () => {
    expect(onlineStoreIssues({ displayStyle: 'number' })).toEqual([
      { path: '/rules', message: "required when displayStyle is 'number'" },
    ]);
  });

  it('when the default passes the settings check, then the value check allows it too (one rule for both)', () => {
    for (const r of [rules(100, 50, 250, 400), rules(0, 0.1, 0.3, null), rules(0.5, 0.1, 1, 50)]) {
      expect(onlineStoreIssues(numberStyle(r))).toEqual([]);
      expect(checkMeasurementRules(r.defaultValue, { settings: { onlineStore: numberStyle(r) } })).toEqual([]);
    }
  });
});

describe('onlineStoreIssues: presets', () => {
  it('when the presets are distinct positive values, then there is no issue', () => {
    expect(
      onlineStoreIssues({ displayStyle: 'pills', presets: [{ value: 0.5, label: 'Half' }, { value: 1 }] }),
    ).toEqual([]);
  });

  it.each([
    ['pills', undefined, [{ path: '/presets', message: "required when displayStyle is 'pills'" }]],
    ['dropdown', [], [{ path: '/presets', message: "required when displayStyle is 'dropdown'" }]],
    [
      'pills',
      [{ value: 0.5 }, { value: 0 }, { value: 0.5 }, { value: -1 }],
      [
        { path: '/presets/1/value', message: 'must be a number > 0' },
        { path: '/presets/2/value', message: "0.5 is also preset 1's value" },
        { path: '/presets/3/value', message: 'must be a number > 0' },
      ],
    ],
  ])('when the %s presets are %j, then every issue is named at its path', (style, presets, issues) => {
    expect(onlineStoreIssues({ displayStyle: style, presets })).toEqual(issues);
  });

  it('when the display style is unknown, then it is named', () => {
    expect(onlineStoreIssues({ displayStyle: 'slider' })).toEqual([
      { path: '/displayStyle', message: 'must be one of number, pills, dropdown' },
    ]);
  });
});
