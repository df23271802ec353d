import type { ExportToSheetsRequest } from '../../api/gen/model/exportToSheetsRequest';
import type { ExportToSheetsResponse } from '../../api/gen/model/exportToSheetsResponse';
import type { SheetItem } from '../../api/gen/model/sheetItem';
import type { ValidateSheetResponse } from '../../api/gen/model/validateSheetResponse';
import {
  exportToSheets as generatedExportToSheets,
  getListSheetsQueryKey,
  getListWorksheetsQueryKey,
  listSheets,
  listWorksheets,
  validateSheet as generatedValidateSheet,
} from '../../api/gen/sheets/sheets';
import { withDefaultMessage } from '../../lib/api-fetch';
import type { Lead, SearchQuery } from '../../lib/lead';
import { isReauthError } from '../../lib/sheets-auth';

// The export feature's calls, over the generated client. A failure without text of its
// own gets the spec's default for the operation (section 8); a re-authentication error
// is passed on untouched, so its own defaults apply where it is shown.

export type { ExportToSheetsResponse, SheetItem, ValidateSheetResponse };

async function call<T>(run: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isReauthError(error)) throw error;
    throw withDefaultMessage(error, fallback);
  }
}

export const sheetsQueryKey = getListSheetsQueryKey();
export const worksheetsQueryKey = (id: string) => getListWorksheetsQueryKey(id);

/** `GET /api/leads/sheets`: the user's spreadsheets. */
export async function fetchSheets(): Promise<SheetItem[]> {
  const answer = await call(() => listSheets(), 'Failed to get sheets');
  return answer.sheets;
}

/** `POST /api/leads/sheets/validate` with a spreadsheet id or link. */
export function validateSpreadsheet(idOrUrl: string): Promise<ValidateSheetResponse> {
  return call(() => generatedValidateSheet({ spreadsheetId: idOrUrl.trim() }), 'Failed to validate spreadsheet');
}

/** `GET /api/leads/sheets/{id}/worksheets`: tab names, in order. */
export async function fetchWorksheets(id: string): Promise<string[]> {
  // orval puts the id into the path as it is.
  const answer = await call(() => listWorksheets(encodeURIComponent(id)), 'Failed to get worksheets');
  return answer.worksheets.map((w) => w.name);
}

/** Where the export goes: a new spreadsheet (blank name: the server's default) or an existing one. */
export type ExportTarget =
  | { mode: 'new'; sheetName: string; worksheetName: string }
  | { mode: 'existing'; sheetId: string; worksheetName: string };

/** The body of `POST /api/leads/export-to-sheets` (spec sections 3 and 5). */
export function buildExportRequest(leads: readonly Lead[], search: SearchQuery, target: ExportTarget): ExportToSheetsRequest {
  const body: ExportToSheetsRequest = {
    // An empty phone or website becomes an empty cell; placeId, rating and reviews are
    // not written (the sheet's columns are Name, Address, Phone, Website).
    leads: leads.map((lead) => ({
      name: lead.name,
      address: lead.address ?? '',
      ...(lead.phone ? { phone: lead.phone } : {}),
      ...(lead.website ? { website: lead.website } : {}),
    })),
    businessType: search.businessType,
    location: search.location,
  };
  const worksheetName = target.worksheetName.trim();
  if (worksheetName) body.worksheetName = worksheetName;
  if (target.mode === 'existing') {
    body.sheetId = target.sheetId;
  } else {
    const sheetName = target.sheetName.trim();
    if (sheetName) body.sheetName = sheetName;
  }
  return body;
}

/** `POST /api/leads/export-to-sheets`. */
export function exportLeads(body: ExportToSheetsRequest): Promise<ExportToSheetsResponse> {
  return call(() => generatedExportToSheets(body), 'Export failed');
}

/** The spreadsheet title a blank name gives (spec section 5: '{location} {businessType} Leads'). */
export function defaultSheetName(search: SearchQuery): string {
  return `${search.location.trim()} ${search.businessType.trim()} Leads`;
}
