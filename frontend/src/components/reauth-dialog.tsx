import { REAUTH_REQUIRED, SHEETS_FEATURE, startSheetsReauth } from '../lib/sheets-auth';
import { Button } from './ui/button';
import { Modal } from './ui/modal';

export interface ReauthDialogProps {
  open: boolean;
  onClose: () => void;
  /** The server's explanation (status or error message); none gives only the feature text. */
  message?: string;
  /** Where to come back to after the identity provider; the current page by default. */
  returnTo?: string;
  /** Called just before the browser leaves (e.g. to keep the results for the return). */
  onBeforeLeave?: () => void;
}

/**
 * 'Re-authentication required' with Cancel / Re-authenticate (spec sections 2 and 4):
 * Re-authenticate sends the browser to the sign-in path with `feature=sheets`.
 */
export function ReauthDialog({ open, onClose, message, returnTo, onBeforeLeave }: ReauthDialogProps) {
  const detail = message?.trim();
  return (
    <Modal open={open} onClose={onClose} title={REAUTH_REQUIRED}>
      {detail && detail !== REAUTH_REQUIRED && (
        <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="reauth-message">
          {detail}
        </p>
      )}
      <p className="text-sm text-slate-600">
        To use <strong>{SHEETS_FEATURE}</strong>, sign in again and allow Leadgen to create and edit the spreadsheets
        you export to. You will come back here afterwards.
      </p>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            onBeforeLeave?.();
            startSheetsReauth(returnTo);
          }}
        >
          Re-authenticate
        </Button>
      </div>
    </Modal>
  );
}
