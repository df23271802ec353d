import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Modal } from '../../components/ui/modal';
import { SHEETS_SIGN_IN_PATH } from '../../lib/session/session-api';
import { fetchSheetsAuthStatus, sheetsAuthStatusQueryKey } from './api-key-api';

/** Settings > Spreadsheet: sign-in and Google Sheets connection (spec sections 2 and 4). */
export function SpreadsheetTab() {
  // Checked each time the tab opens.
  const status = useQuery({ queryKey: sheetsAuthStatusQueryKey, queryFn: fetchSheetsAuthStatus, staleTime: 0 });
  const [dialogOpen, setDialogOpen] = useState(false);

  const connection = status.isPending ? 'checking' : status.data?.authenticated ? 'connected' : 'disconnected';

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Spreadsheet</h2>
      <p className="mt-1 text-sm text-slate-600">Connect Google Sheets to export leads straight into your spreadsheets.</p>
      <ul className="mt-5 divide-y divide-slate-100 rounded-xl border border-slate-200">
        <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="text-sm font-medium text-slate-900">Google sign-in (OAuth)</p>
            <p className="mt-0.5 flex items-center gap-1.5 text-sm text-green-700">
              <span className="size-2 rounded-full bg-green-500" aria-hidden="true" />
              Connected and active
            </p>
          </div>
          <Badge tone="indigo">Manage</Badge>
        </li>
        <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="text-sm font-medium text-slate-900">Google Sheets</p>
            {connection === 'checking' && <p className="mt-0.5 text-sm text-slate-500" role="status">Checking...</p>}
            {connection === 'connected' && (
              <p className="mt-0.5 flex items-center gap-1.5 text-sm text-green-700">
                <span className="size-2 rounded-full bg-green-500" aria-hidden="true" />
                Connected and active
              </p>
            )}
            {connection === 'disconnected' && (
              <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
                <span className="size-2 rounded-full bg-slate-400" aria-hidden="true" />
                Not connected
              </p>
            )}
          </div>
          {connection === 'disconnected' && (
            <Button variant="secondary" size="sm" onClick={() => setDialogOpen(true)}>
              Configure
            </Button>
          )}
        </li>
      </ul>

      <Modal open={dialogOpen} onClose={() => setDialogOpen(false)} title="Re-authentication required">
        <p className="text-sm text-slate-600">
          To use <strong>Google Sheets export</strong>, sign in again and allow Leadgen to create and edit the
          spreadsheets you export to.
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDialogOpen(false)}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              window.location.href = SHEETS_SIGN_IN_PATH;
            }}
          >
            Re-authenticate
          </Button>
        </div>
      </Modal>
    </Card>
  );
}
