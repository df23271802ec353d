import { useState } from "react";
import { useGetAuthConfig } from "../../api/gen/auth/auth";
import { ReauthDialog } from "../../components/reauth-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { sheetsConnection, useSheetsAuthStatus } from "../../lib/sheets-auth";
import { DeliveryCard } from "./delivery-card";

/** Where re-authentication from this tab comes back to. */
const RETURN_TO = "/settings?tab=spreadsheet";

/** Settings > Spreadsheet: sign-in and Google Sheets connection (spec sections 2 and 4). */
export function SpreadsheetTab() {
  // Checked each time the tab opens; a failed check reads as needing re-authentication.
  const { status, checking } = useSheetsAuthStatus();
  const [dialogOpen, setDialogOpen] = useState(false);

  const connection = checking
    ? "checking"
    : status
      ? sheetsConnection(status)
      : "needs-reauth";
  const localMode =
    useGetAuthConfig({ query: { staleTime: Infinity, retry: false } }).data
      ?.localMode === true;
  const message = status?.message;

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Spreadsheet</h2>
        <p className="mt-1 text-sm text-slate-600">
          Connect Google Sheets to export leads straight into your spreadsheets.
        </p>
        <ul className="mt-5 divide-y divide-slate-100 rounded-xl border border-slate-200">
          <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="text-sm font-medium text-slate-900">
                Google sign-in (OAuth)
              </p>
              {/* Only what is true (issue #26 item 8): a server without an identity
                provider signs in its local operator, and no OAuth connection exists. */}
              {localMode ? (
                <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
                  <span
                    className="size-2 rounded-full bg-slate-400"
                    aria-hidden="true"
                  />
                  Not used: this server signs in its local operator
                </p>
              ) : (
                <p className="mt-0.5 flex items-center gap-1.5 text-sm text-green-700">
                  <span
                    className="size-2 rounded-full bg-green-500"
                    aria-hidden="true"
                  />
                  Connected and active
                </p>
              )}
            </div>
            <Badge tone="indigo">Manage</Badge>
          </li>
          <li
            className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between"
            aria-label="Google Sheets connection"
          >
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">
                Google Sheets
              </p>
              {connection === "checking" && (
                <p className="mt-0.5 text-sm text-slate-500" role="status">
                  Checking...
                </p>
              )}
              {connection === "connected" && (
                <p
                  className="mt-0.5 flex items-center gap-1.5 text-sm text-green-700"
                  role="status"
                >
                  <span
                    className="size-2 rounded-full bg-green-500"
                    aria-hidden="true"
                  />
                  Connected and active
                </p>
              )}
              {(connection === "needs-reauth" ||
                connection === "unavailable") && (
                <>
                  <p
                    className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600"
                    role="status"
                  >
                    <span
                      className="size-2 rounded-full bg-slate-400"
                      aria-hidden="true"
                    />
                    {connection === "unavailable"
                      ? "Not available on this server"
                      : "Not connected"}
                  </p>
                  {message && (
                    <p className="mt-1 text-xs text-slate-500">{message}</p>
                  )}
                </>
              )}
            </div>
            {/* When the server has Sheets switched off, re-authenticating cannot help. */}
            {connection === "needs-reauth" && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setDialogOpen(true)}
              >
                Configure
              </Button>
            )}
          </li>
        </ul>

        <ReauthDialog
          open={dialogOpen}
          onClose={() => setDialogOpen(false)}
          returnTo={RETURN_TO}
        />
      </Card>
      <DeliveryCard />
    </div>
  );
}
