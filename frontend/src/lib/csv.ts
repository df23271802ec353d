import { CONTACT_COLUMNS, contactCells } from './contacts';
import type { Lead } from './lead';
import { spreadsheetCell } from './spreadsheet-cell';
import { saveFile } from './save-file';

/** CSV columns, in order (spec section 5). */
export const CSV_COLUMNS = ['Name', 'Address', 'Phone', 'Website', 'Rating', 'Reviews'] as const;

/**
 * The place's own columns (issue #26 item 7), after every other, so a file of the spec's
 * columns (and an enriched one's) stays a prefix of today's.
 */
export const PLACE_COLUMNS = ['Category', 'Street', 'City', 'State', 'Postal Code', 'Place ID'] as const;

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
   * The leads come from an enriched search (issue #14): Email, the social profiles and
   * how the website read went follow the spec's six columns, before the place's own.
   */
  enriched?: boolean;
}

/**
 * Builds the CSV text for leads: a header row, then one row per lead. Commas and
 * line breaks inside values stay inside the quotes; rows end with CRLF (RFC 4180).
 */
export function buildLeadsCsv(leads: readonly Lead[], { enriched = false }: CsvOptions = {}): string {
  const rows: Array<ReadonlyArray<string | number | null | undefined>> = [
    [...CSV_COLUMNS, ...(enriched ? CONTACT_COLUMNS : []), ...PLACE_COLUMNS],
    ...leads.map((lead) => [
      lead.name,
      lead.address,
      lead.phone,
      lead.website,
      lead.rating,
      lead.reviewCount,
      ...(enriched ? contactCells(lead.contacts) : []),
      lead.category,
      lead.street,
      lead.city,
      lead.state,
      lead.postalCode,
      lead.placeId,
    ]),
  ];
  return rows.map((row) => row.map(quoteCsvValue).join(',')).join('\r\n');
}

/** A filename-safe timestamp such as 2025-03-04T09-15-30. */
export function csvTimestamp(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace(/:/g, '-');
}

/**
 * Lower-case ASCII words joined by hyphens, for a file name: `Houston, TX` becomes
 * `houston-tx`, `Café Zürich` `cafe-zurich`, `real_estate_agency` `real-estate-agency`.
 */
export function fileSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/** What a file is named after: the search. */
export interface ExportNaming {
  businessType: string;
  location: string;
}

/**
 * `leads-{businessType}-{location}-{timestamp}.csv`, slugified, e.g.
 * `leads-dentist-houston-tx-2026-11-26T13-45-00.csv`: the spec's
 * `leads-{businessType}-{timestamp}.csv` (section 5) with the location added (issue #26
 * item 7), so a folder of exports says which search each is. A location with nothing
 * to keep (an area drawn on a map) is left out.
 */
export function leadsCsvFilename({ businessType, location }: ExportNaming, date: Date = new Date()): string {
  const parts = ['leads', fileSlug(businessType), fileSlug(location), csvTimestamp(date)].filter(Boolean);
  return `${parts.join('-')}.csv`;
}

/**
 * Starts a browser download of the leads as CSV. A UTF-8 byte-order mark is
 * prepended to the file so spreadsheet programs read accented names correctly.
 */
export function downloadLeadsCsv(leads: readonly Lead[], search: ExportNaming, options: CsvOptions = {}): string {
  const filename = leadsCsvFilename(search);
  const blob = new Blob(['\uFEFF', buildLeadsCsv(leads, options)], { type: 'text/csv;charset=utf-8' });
  saveFile(blob, filename);
  return filename;
}
