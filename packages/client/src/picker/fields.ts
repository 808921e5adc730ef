import { plainNumber } from '@tare/contracts';
import { netKey } from '../cart/line-item.js';
import { renderTemplate } from '../cart/template.js';
import type { PickerVariantConfig } from './config.js';

/** What the picker renders for a variant: one labelled input (number) or a list of choices (presets). */
export interface PickerFields {
  /** The input's (or the group's) accessible name: the shop's net-measurement label and the unit. */
  label: string;
  style: PickerVariantConfig['displayStyle'];
  /** For `number`: the input's attributes, as decimal text (never exponent notation). */
  number?: { min: string; step: string; max?: string; value: string };
  /** For `pills` and `dropdown`: each preset's value and its text. */
  choices?: { value: number; text: string }[];
  /**
   * For a variant made from dimensions (PRODUCT.md §19): each factor's label (`length (m)`) and
   * either its input's attributes or its fixed value as shown (`4 m`).
   */
  factors?: { label: string; number?: { min: string; step: string; max?: string; value: string }; fixed?: string }[];
}

/**
 * The fields of a variant in the shop's labels: `net{Type}` names the input ("Net weight (kg)"),
 * a preset shows its own label, else its value through `net{Type}_value_{unit}` ("250 g").
 * @example pickerFields(coffeePerKg, { netWeight: 'Net weight' }).label // 'Net weight (kg)'
 */
export function pickerFields(variant: PickerVariantConfig, labels: Record<string, string>): PickerFields {
  const { unit } = variant.unitMeasurement;
  const name = Object.hasOwn(labels, netKey(variant.type)) ? labels[netKey(variant.type)]! : variant.type;
  const label = `${name.charAt(0).toUpperCase()}${name.slice(1)} (${unit})`;
  if (variant.dimensions?.length) {
    const factors = variant.dimensions.map((d) => {
      const named = `${d.name.charAt(0).toUpperCase()}${d.name.slice(1)} (${d.unit})`;
      if (d.fixed !== undefined) return { label: named, fixed: `${plainNumber(d.fixed)} ${d.unit}` };
      return {
        label: named,
        number: numberAttributes(d.rules ?? { min: 0, increment: 1, defaultValue: 1, max: null }),
      };
    });
    return { label, style: 'number', factors };
  }
  if (variant.displayStyle === 'number') {
    const rules = variant.rules ?? { min: 0, increment: 1, defaultValue: 1, max: null };
    return {
      label,
      style: 'number',
      number: {
        min: plainNumber(rules.min),
        step: plainNumber(rules.increment),
        ...(rules.max === null ? {} : { max: plainNumber(rules.max) }),
        value: plainNumber(rules.defaultValue),
      },
    };
  }
  const template = labels[`${netKey(variant.type)}_value_${unit}`];
  const text = (value: number) =>
    template === undefined ? `${plainNumber(value)} ${unit}` : renderTemplate(template, { quantity: value, unit });
  const choices = (variant.presets ?? []).map((p) => ({ value: p.value, text: p.label ?? text(p.value) }));
  return { label, style: variant.displayStyle, choices };
}

function numberAttributes(rules: { min: number; increment: number; defaultValue: number; max: number | null }) {
  return {
    min: plainNumber(rules.min),
    step: plainNumber(rules.increment),
    ...(rules.max === null ? {} : { max: plainNumber(rules.max) }),
    value: plainNumber(rules.defaultValue),
  };
}
