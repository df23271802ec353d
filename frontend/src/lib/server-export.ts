import { getExportSearchUrl } from '../api/gen/leads/leads';
import type { ExportFormat } from '../api/gen/model/exportFormat';
import { OPERATION_ERROR_MESSAGES } from './api-error-messages';
import { ApiError, buildHeaders } from './api-fetch';
import { saveFile } from './save-file';

/** The file name of a `Content-Disposition: attachment; filename="..."` header. */
export function attachmentName(disposition: string | null): string | undefined {
  return disposition?.match(/filename="([^"]+)"/)?.[1];
}

/**
 * Downloads a finished search's leads as the server exports them (`export_search`, issue
 * #29): CSV, XLSX or JSON, named by the server. Read with fetch, not the generated
 * fetcher, since the answer is a file (the mutator parses JSON); the headers are the
 * mutator's (bearer token, current workspace). Throws {@link ApiError} with the server's
 * words for any refusal: 404 and 410 (results gone) let a caller that still holds the
 * leads fall back to its own CSV. Returns the file's name.
 */
export async function downloadServerExport(searchId: string, format: ExportFormat): Promise<string> {
  const response = await fetch(getExportSearchUrl(searchId, { format }), {
    headers: buildHeaders({ Accept: '*/*' }),
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(response.status, response.statusText, body, OPERATION_ERROR_MESSAGES.export_search);
  }
  const filename = attachmentName(response.headers.get('Content-Disposition')) ?? `leads.${format}`;
  saveFile(await response.blob(), filename);
  return filename;
}

/** Whether a failed export means the server no longer has the results (404, 410). */
export function resultsNotHeld(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 410);
}
