import { CONTACT_COLUMNS, contactCells } from './contacts';
import type { Lead } from './lead';
import { spreadsheetCell } from './spreadsheet-cell';

/** CSV columns, in order (spec section 5). */
export const CSV_COLUMNS = ['Name', 'Address', 'Phone', 'Website', 'Rating', 'Reviews'] as const;

/**
 * Quotes one value: every value is quoted and inner quotes are doubled; a value a
 * spreadsheet would run as a formula is written as text first ({@link spreadsheetCell}).
 */
export function quoteCsvValue(value: string | number | null | undefined): string {
  return `"${spreadsheetCell(value).replace(/"/g, '""')}"`;
}

/** How the CSV is built. */
export interface CsvOptions {
  /**
   * The leads come from an enriched search (issue #14): Email and the social profiles
   * follow the spec's six columns. Otherwise the file is exactly the spec's.
   */
  enriched?: boolean;
}

/**
 * Builds the CSV text for leads: a header row, then one row per lead. Commas and
 * line breaks inside values stay inside the quotes; rows end with CRLF (RFC 4180).
 */
export function buildLeadsCsv(leads: readonly Lead[], { enriched = false }: CsvOptions = {}): string {
  const rows: Array<ReadonlyArray<string | number | null | undefined>> = [
    enriched ? [...CSV_COLUMNS, ...CONTACT_COLUMNS] : CSV_COLUMNS,
    ...leads.map((lead) => [
      lead.name,
      lead.address,
      lead.phone,
      lead.website,
      lead.rating,
      lead.reviewCount,
      ...(enriched ? contactCells(lead.contacts) : []),
    ]),
  ];
  return rows.map((row) => row.map(quoteCsvValue).join(',')).join('\r\n');
}

/** A filename-safe timestamp such as 2025-03-04T09-15-30. */
export function csvTimestamp(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace(/:/g, '-');
}

/** `leads-{businessType}-{timestamp}.csv` (spec section 5). */
export function leadsCsvFilename(businessType: string, date: Date = new Date()): string {
  return `leads-${businessType}-${csvTimestamp(date)}.csv`;
}

/**
 * Starts a browser download of the leads as CSV. A UTF-8 byte-order mark is
 * prepended to the file so spreadsheet programs read accented names correctly.
 */
export function downloadLeadsCsv(leads: readonly Lead[], businessType: string, options: CsvOptions = {}): string {
  const filename = leadsCsvFilename(businessType);
  const blob = new Blob(['\uFEFF', buildLeadsCsv(leads, options)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before releasing the blob.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  return filename;
}
