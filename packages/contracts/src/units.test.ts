import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEASUREMENT_TYPES, UNIT_CATALOGUE, unitDefinition } from './units.js';

/** The published rows (rec20-excerpt.csv says where from), by common code. */
function publishedRows(): Map<string, Record<string, string>> {
  const lines = readFileSync(new URL('./rec20-excerpt.csv', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
  const [header, ...rows] = lines.map(csvCells);
  return new Map(rows.map((row) => [row[1]!, Object.fromEntries(header!.map((name, i) => [name, row[i] ?? '']))]));
}

/** The cells of one CSV line (RFC 4180 quoting; the excerpt has no line breaks inside a cell). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === '"' && quoted && line.charAt(i + 1) === '"') cell += line.charAt(++i);
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) [cells[cells.length], cell] = [cell, ''];
    else cell += c;
  }
  return [...cells, cell];
}

const SUPERSCRIPT: Record<string, string> = {
  '⁻': '-',
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
};

/** A published conversion factor ("2,834 952 x 10⁻² kg") as a number and its SI unit. */
function publishedFactor(text: string): { factor: number; unit: string } {
  const m = /^([\d ,]*?)\s*(?:x?\s*10([⁻⁰¹²³⁴⁵⁶]+))?\s*(kg|m²|m³|m|s)$/.exec(text.trim());
  if (!m) throw new Error(`cannot read factor ${text}`);
  const mantissa = m[1] ? Number(m[1].replace(/ /g, '').replace(',', '.')) : 1;
  const exponent = m[2] ? Number([...m[2]].map((c) => SUPERSCRIPT[c]).join('')) : 0;
  return { factor: mantissa * 10 ** exponent, unit: m[3]! };
}

// Tare's base units in the SI units the list states factors in: the litre is 10⁻³ m³.
const SI_BASE = {
  weight: ['kg', 1],
  length: ['m', 1],
  area: ['m²', 1],
  volume: ['m³', 0.001],
  time: ['s', 1],
} as const;

describe('UN/ECE Recommendation 20 codes', () => {
  const published = publishedRows();
  const units = MEASUREMENT_TYPES.flatMap((type) => UNIT_CATALOGUE[type].units.map((unit) => ({ type, ...unit })));

  it.each(units)(
    'when unit $id ($rec20) is looked up in the published list, then the code is there and not deleted',
    (unit) => {
      const row = published.get(unit.rec20);
      expect(row, `${unit.rec20} is not in the published list`).toBeDefined();
      expect(row!.Status).not.toBe('X');
    },
  );

  it.each(units)('when unit $id ($rec20) is converted as the list states, then it is the same quantity', (unit) => {
    const stated = publishedFactor(published.get(unit.rec20)?.ConversionFactor ?? '');
    const [siUnit, perBase] = SI_BASE[unit.type];
    expect(stated.unit).toBe(siUnit);
    // The list rounds to about seven significant digits (and states the US survey acre).
    expect(stated.factor / (Number(unit.factor) * perBase)).toBeCloseTo(1, 5);
  });

  it('when every unit has a code, then no two units share one', () => {
    const codes = units.map((unit) => unit.rec20);
    expect(new Set(codes).size).toBe(codes.length);
    expect(unitDefinition('L')?.rec20).toBe('LTR');
    expect(unitDefinition('l')).toBeUndefined();
  });
});
