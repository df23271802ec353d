import type { ExportToSheetsRequest } from '../../api/gen/model/exportToSheetsRequest';
import { isEnriched, type Lead, type SearchQuery } from '../../lib/lead';

// What the export dialog sends to `POST /api/leads/export-to-sheets` (generated types).

/** Where the export goes: a new spreadsheet (blank name: the server's default) or an existing one. */
export type ExportTarget =
  | { mode: 'new'; sheetName: string; worksheetName: string }
  | { mode: 'existing'; sheetId: string; worksheetName: string };

/** The body of `POST /api/leads/export-to-sheets` (spec sections 3 and 5). */
export function buildExportRequest(leads: readonly Lead[], search: SearchQuery, target: ExportTarget): ExportToSheetsRequest {
  const enriched = isEnriched(search);
  const body: ExportToSheetsRequest = {
    // An empty phone or website becomes an empty cell; rating and reviews are not
    // written (the sheet's columns are Name, Address, Phone, Website, then for an
    // enriched search Email and the social profiles, from what the page has). The place
    // id is not written either: the workspace's place memory marks it exported.
    leads: leads.map((lead) => ({
      ...(lead.placeId ? { placeId: lead.placeId } : {}),
      name: lead.name,
      address: lead.address ?? '',
      ...(lead.phone ? { phone: lead.phone } : {}),
      ...(lead.website ? { website: lead.website } : {}),
      ...(enriched && lead.contacts ? { contacts: lead.contacts } : {}),
    })),
    businessType: search.businessType,
    location: search.location,
    ...(enriched ? { enriched: true } : {}),
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

/** The spreadsheet title a blank name gives (spec section 5: '{location} {businessType} Leads'). */
export function defaultSheetName(search: SearchQuery): string {
  return `${search.location.trim()} ${search.businessType.trim()} Leads`;
}
