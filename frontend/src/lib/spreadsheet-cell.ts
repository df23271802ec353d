// Cells of files a spreadsheet program opens (the CSV download today): values that come
// from the web (a business's name, address, website, the contacts its site publishes)
// must never become a live formula there (CSV injection, issue #25 item 6).
//
// OWASP's guidance (https://owasp.org/www-community/attacks/CSV_Injection): a cell that
// begins with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by
// Excel, LibreOffice Calc or Google Sheets; prefixing it with a single quote makes it
// text. Two kinds of cells are left as they are, so the file stays useful:
// - a plain number (a rating, a review count): a spreadsheet reads it as the number;
// - a phone number such as `+1 512-555-0100`: digits, spaces and `+ ( ) . -`, with the
//   `+` only first, cannot name a function, so it cannot call one.
// (The Sheets export needs none of this: the server writes its cells as `RAW` text.)

/** The first characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A plain decimal number, e.g. `-3` or `4.5`: a spreadsheet reads it as that number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A phone number as Google formats them: an optional leading `+`, then digits, spaces,
 * parentheses, dots and hyphens, with at least 7 digits (so `-2+3` or `+1+1` is not one).
 */
const PHONE = /^\+?[\d\s().-]+$/;
const MIN_PHONE_DIGITS = 7;

function isPhoneNumber(text: string): boolean {
  return PHONE.test(text) && !text.startsWith('-') && (text.match(/\d/g)?.length ?? 0) >= MIN_PHONE_DIGITS;
}

/**
 * The text to write in a spreadsheet cell for `value`: the value itself, or, when a
 * spreadsheet would read it as a formula, the value after a single quote. `null` and
 * `undefined` are an empty cell; numbers are written as they print.
 */
export function spreadsheetCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  if (!FORMULA_START.test(text) || PLAIN_NUMBER.test(text) || isPhoneNumber(text)) return text;
  return `'${text}`;
}
