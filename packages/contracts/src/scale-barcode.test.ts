import { describe, expect, it } from 'vitest';
import {
  type ScaleBarcodeFormat,
  decodeScaleBarcode,
  ean13CheckDigit,
  priceVerifierDigit,
  scaleFormatProblems,
} from './scale-barcode.js';

// An independent reading of GS1 General Specifications §7.9: the weighting factors computed from
// their definitions (the decoder under test keeps them as tables), the check digit from the left.
const product = (digit: number, factor: number, tens: 1 | -1) => {
  const p = digit * factor;
  return ((((p % 10) + tens * Math.floor(p / 10)) % 10) + 10) % 10;
};
const twoMinus = (d: number) => product(d, 2, -1);
const three = (d: number) => (d * 3) % 10;
const fivePlus = (d: number) => product(d, 5, 1);
const fiveMinus = (d: number) => product(d, 5, -1);

function verifierOf(value: string): number {
  const d = [...value].map(Number);
  if (d.length === 4) return ((twoMinus(d[0]!) + twoMinus(d[1]!) + three(d[2]!) + fiveMinus(d[3]!)) * 3) % 10;
  const sum = fivePlus(d[0]!) + twoMinus(d[1]!) + fiveMinus(d[2]!) + fivePlus(d[3]!) + twoMinus(d[4]!);
  const wanted = (10 - (sum % 10)) % 10;
  return [...Array(10).keys()].find((c) => fiveMinus(c) === wanted)!;
}

function checkOf(twelve: string): number {
  // From the left, a 12-digit body has weight 1 at odd positions and 3 at even ones.
  const sum = [...twelve].reduce((s, c, i) => s + Number(c) * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10;
}

const label = (body: string) => `${body}${checkOf(body)}`;
const withDigit = (code: string, at: number, digit: number) => code.slice(0, at) + digit + code.slice(at + 1);
const otherDigit = (d: number) => (d + 3) % 10;

const kg: ScaleBarcodeFormat = {
  prefix: '21',
  itemDigits: 5,
  value: 'weight',
  valueDigits: 5,
  decimals: 3,
  unit: 'kg',
};
const grams: ScaleBarcodeFormat = {
  prefix: '28',
  itemDigits: 6,
  value: 'weight',
  valueDigits: 4,
  decimals: 0,
  unit: 'g',
};
const price4: ScaleBarcodeFormat = {
  prefix: '22',
  itemDigits: 5,
  value: 'price',
  valueDigits: 4,
  decimals: 2,
  priceCheckDigit: true,
};
const price5: ScaleBarcodeFormat = {
  prefix: '02',
  itemDigits: 4,
  value: 'price',
  valueDigits: 5,
  decimals: 2,
  priceCheckDigit: true,
};
const formats = [kg, grams, price4, price5];

describe('ean13CheckDigit', () => {
  it.each([
    ['400638133393', 1],
    ['590123412345', 7],
    ['211234501234', checkOf('211234501234')],
    ['000000000000', 0],
  ])('when the body is %s, then the check digit is %i', (body, digit) => {
    expect(ean13CheckDigit(body)).toBe(digit);
  });
});

describe('priceVerifierDigit', () => {
  it.each([
    ['2875', 9],
    ['14685', 6],
  ])("when the value is GS1's worked example %s, then the verifier digit is %i", (value, digit) => {
    expect(priceVerifierDigit(value)).toBe(digit);
  });

  it('when every four- and five-digit value is weighted, then it agrees with the independent reading', () => {
    for (let n = 0; n < 100_000; n += 7) {
      const five = String(n).padStart(5, '0');
      expect(priceVerifierDigit(five)).toBe(verifierOf(five));
      const four = five.slice(1);
      expect(priceVerifierDigit(four)).toBe(verifierOf(four));
    }
  });

  it('when the value is not 4 or 5 digits, then it refuses it', () => {
    expect(() => priceVerifierDigit('123')).toThrow(RangeError);
  });
});

describe('decodeScaleBarcode', () => {
  it.each([
    ['a 1.234 kg label', label('21' + '12345' + '01234'), kg, '12345', '1.234'],
    ['a 0.005 kg label', label('21' + '00042' + '00005'), kg, '00042', '0.005'],
    ['a 250 g label', label('28' + '123456' + '0250'), grams, '123456', '250'],
    ['a €12.34 label with its verifier', label('22' + '00777' + verifierOf('1234') + '1234'), price4, '00777', '12.34'],
    [
      'a €146.85 label with its verifier',
      label('02' + '0042' + verifierOf('14685') + '14685'),
      price5,
      '0042',
      '146.85',
    ],
    ['a €0.07 label', label('02' + '0042' + verifierOf('00007') + '00007'), price5, '0042', '0.07'],
  ])('when %s is scanned, then it gives its item and exact value', (_name, code, format, item, value) => {
    expect(decodeScaleBarcode(code, formats)).toEqual({ ok: true, label: { format, item, value } });
  });

  const weight = label('21' + '12345' + '01234');
  it.each([
    ['12 digits', weight.slice(0, 12), 'not_13_digits'],
    ['14 digits', `${weight}0`, 'not_13_digits'],
    ['a letter', `${weight.slice(0, 12)}X`, 'not_13_digits'],
    ['spaces around it', ` ${weight}`, 'not_13_digits'],
    ['a wrong check digit', withDigit(weight, 12, otherDigit(Number(weight[12]))), 'check_digit'],
    ['a misread value digit', withDigit(weight, 10, otherDigit(Number(weight[10]))), 'check_digit'],
    ['a prefix no format claims', label('25' + '12345' + '01234'), 'unclaimed_prefix'],
    ['a GTIN of a fixed-measure item', '4006381333931', 'unclaimed_prefix'],
    [
      'a wrong verifier digit (check digit right)',
      label('22' + '00777' + otherDigit(verifierOf('1234')) + '1234'),
      'verifier_digit',
    ],
    [
      'a wrong five-digit verifier digit',
      label('02' + '0042' + otherDigit(verifierOf('14685')) + '14685'),
      'verifier_digit',
    ],
  ])('when the code has %s, then it is refused with that reason', (_name, code, reason) => {
    const decoded = decodeScaleBarcode(code, formats);
    expect(decoded).toEqual({ ok: false, reason, message: expect.stringMatching(/\S/) });
  });

  it('when the format claiming the prefix does not add up to 13 digits, then the label is refused naming it', () => {
    const decoded = decodeScaleBarcode(label('21' + '12345' + '01234'), [{ ...kg, itemDigits: 6 }]);
    expect(decoded).toEqual({
      ok: false,
      reason: 'format_does_not_add_up',
      message: expect.stringContaining('makes 14 digits, not 13'),
    });
  });
});

describe('scaleFormatProblems', () => {
  it.each(formats)('when the format is sound ($prefix), then it has no problem', (format) => {
    expect(scaleFormatProblems(format)).toEqual([]);
  });

  it.each([
    ['prefix 30', { ...kg, prefix: '30' }, 'prefix'],
    ['digits adding to 12', { ...kg, itemDigits: 4 }, 'valueDigits'],
    [
      'a verifier on 6 value digits',
      { ...kg, itemDigits: 3, valueDigits: 6, priceCheckDigit: true },
      'priceCheckDigit',
    ],
    ['more decimals than digits', { ...kg, decimals: 6 }, 'decimals'],
    ['a weight format without a unit', { ...kg, unit: undefined }, 'unit'],
    ['a weight format in metres', { ...kg, unit: 'm' }, 'unit'],
    ['a price format with a unit', { ...price4, unit: 'kg' }, 'unit'],
    ['no item digits', { ...kg, itemDigits: 0, valueDigits: 10 }, 'itemDigits'],
  ])('when the format has %s, then the problem names %s', (_name, format, field) => {
    expect(scaleFormatProblems(format as ScaleBarcodeFormat).map((p) => p.field)).toContain(field);
  });
});
