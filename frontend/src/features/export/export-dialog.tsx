import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ExportToSheetsResponse } from '../../api/gen/model/exportToSheetsResponse';
import type { SheetsListResponse } from '../../api/gen/model/sheetsListResponse';
import type { WorksheetsResponse } from '../../api/gen/model/worksheetsResponse';
import {
  getListSheetsQueryKey,
  getListWorksheetsQueryKey,
  useExportToSheets,
  useListSheets,
  useListWorksheets,
  useValidateSheet,
} from '../../api/gen/sheets/sheets';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Hint, Input, Label, Select } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-fetch';
import { isEnriched, type Lead, type SearchQuery } from '../../lib/lead';
import { AUTH_EXPIRED, isReauthError, isSheetsUnavailable, REAUTH_REQUIRED } from '../../lib/sheets-auth';
import { buildExportRequest, defaultSheetName } from './export-request';

/** Google's name for the first tab of a new spreadsheet. */
const NEW_SHEET_DEFAULT_TAB = 'Sheet1';

export type ExportMode = 'new' | 'existing';

export interface ExportDialogProps {
  results: Lead[];
  search: SearchQuery;
  onClose: () => void;
  /** The export worked: the caller closes the dialog and shows the success banner. */
  onExported: (answer: ExportToSheetsResponse) => void;
  /** The export failed: the caller closes the dialog and shows the failure banner. */
  onFailed: (message: string) => void;
  /** Google wants consent again (403, or 401 with needsReauth), with the text to show. */
  onNeedsReauth: (message: string) => void;
  /** Starts re-authentication from a prompt inside the dialog. */
  onReauthenticate: () => void;
  onDownloadCsv: () => void;
}

/** The re-authentication prompt's text: the server's message, else the spec's defaults. */
function reauthText(error: ApiError): string {
  const body = error.body as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message.trim() : '';
  return message || (error.status === 401 ? AUTH_EXPIRED : REAUTH_REQUIRED);
}

/** A failed call's text: the fetch mutator has put the server's text or the operation's default in it. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** orval puts a path parameter into the URL as it is; a spreadsheet id is encoded first. */
const worksheetsPathId = (sheetId: string) => encodeURIComponent(sheetId);

const selectSheets = (answer: SheetsListResponse) => answer.sheets;
const selectTabNames = (answer: WorksheetsResponse) => answer.worksheets.map((w) => w.name);

/**
 * The export dialog (spec sections 4 and 5), mounted only while open so that its state
 * starts afresh each time: create a new spreadsheet (blank name: '{location}
 * {businessType} Leads') or write to an existing one, with an optional tab.
 */
export function ExportDialog({
  results,
  search,
  onClose,
  onExported,
  onFailed,
  onNeedsReauth,
  onReauthenticate,
  onDownloadCsv,
}: ExportDialogProps) {
  const id = useId();
  const [mode, setMode] = useState<ExportMode>('new');
  const [sheetName, setSheetName] = useState('');
  const [tabName, setTabName] = useState('');
  const [sheetId, setSheetId] = useState('');
  const [triedWithoutSheet, setTriedWithoutSheet] = useState(false);

  const queryClient = useQueryClient();
  const exporting = useExportToSheets({
    // A new spreadsheet joins the user's list.
    mutation: { onSuccess: () => void queryClient.invalidateQueries({ queryKey: getListSheetsQueryKey() }) },
  });
  const running = exporting.isPending;
  const needsSheet = mode === 'existing' && !sheetId;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (running) return;
    if (needsSheet) {
      setTriedWithoutSheet(true);
      return;
    }
    const target =
      mode === 'existing'
        ? ({ mode, sheetId, worksheetName: tabName } as const)
        : ({ mode, sheetName, worksheetName: tabName } as const);
    try {
      const answer = await exporting.mutateAsync({ data: buildExportRequest(results, search, target) });
      onExported(answer);
    } catch (error) {
      if (isReauthError(error)) onNeedsReauth(reauthText(error));
      else onFailed(errorText(error));
    }
  }

  const count = `${results.length} ${results.length === 1 ? 'lead' : 'leads'}`;
  const fallbackName = defaultSheetName(search);

  return (
    <Modal open onClose={() => !running && onClose()} title="Export to Google Sheets" className="max-w-xl">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <p className="text-sm text-slate-600">
          Write {count} (Name, Address, Phone, Website{isEnriched(search) ? ', Email and social profiles' : ''}) to a Google
          spreadsheet.
        </p>

        <fieldset className="mt-5" disabled={running}>
          <legend className="text-sm font-medium text-slate-800">Destination</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            <ModeOption name={`${id}-mode`} value="new" checked={mode === 'new'} onSelect={() => setMode('new')}>
              Create new sheet
            </ModeOption>
            <ModeOption
              name={`${id}-mode`}
              value="existing"
              checked={mode === 'existing'}
              onSelect={() => {
                setMode('existing');
                setTabName('');
              }}
            >
              Use existing sheet
            </ModeOption>
          </div>
        </fieldset>

        <fieldset className="mt-5 space-y-4" disabled={running}>
          {mode === 'new' ? (
            <>
              <div>
                <Label htmlFor={`${id}-name`}>Sheet name</Label>
                <Input
                  id={`${id}-name`}
                  className="mt-1.5"
                  value={sheetName}
                  onChange={(e) => setSheetName(e.target.value)}
                  placeholder={fallbackName}
                  maxLength={200}
                  aria-describedby={`${id}-name-hint`}
                />
                <Hint id={`${id}-name-hint`}>Leave blank to name it “{fallbackName}”.</Hint>
              </div>
              <div>
                <Label htmlFor={`${id}-tab`}>Tab name (optional)</Label>
                <Input
                  id={`${id}-tab`}
                  className="mt-1.5"
                  value={tabName}
                  onChange={(e) => setTabName(e.target.value)}
                  placeholder={NEW_SHEET_DEFAULT_TAB}
                  maxLength={100}
                  aria-describedby={`${id}-tab-hint`}
                />
                <Hint id={`${id}-tab-hint`}>Leave blank for the default tab.</Hint>
              </div>
            </>
          ) : (
            <ExistingSheetFields
              idPrefix={id}
              sheetId={sheetId}
              onSheet={(next) => {
                setSheetId(next);
                setTabName('');
                if (next) setTriedWithoutSheet(false);
              }}
              tabName={tabName}
              onTabName={setTabName}
              showSheetError={triedWithoutSheet}
              onReauthenticate={onReauthenticate}
              onDownloadCsv={onDownloadCsv}
            />
          )}
        </fieldset>

        <div className="mt-6 flex flex-wrap items-center justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={running}>
            Cancel
          </Button>
          <Button type="submit" disabled={running || needsSheet} aria-busy={running || undefined}>
            {running && <Spinner />}
            {running ? 'Exporting...' : 'Export'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ModeOption({
  name,
  value,
  checked,
  onSelect,
  children,
}: {
  name: string;
  value: ExportMode;
  checked: boolean;
  onSelect: () => void;
  children: ReactNode;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2.5 text-sm font-medium ring-1 ring-inset',
        checked ? 'bg-indigo-50 text-indigo-800 ring-indigo-300' : 'text-slate-700 ring-slate-300 hover:bg-slate-50',
      )}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={onSelect} className="accent-indigo-600" />
      {children}
    </label>
  );
}

/** Google wants consent again: the server's message and a Re-authenticate button. */
function ReauthPrompt({ message, onReauthenticate }: { message: string; onReauthenticate: () => void }) {
  return (
    <Banner
      tone="warning"
      title={message}
      actions={
        <Button size="sm" onClick={onReauthenticate}>
          Re-authenticate
        </Button>
      }
    >
      Allow Leadgen to use Google Sheets again to see your spreadsheets.
    </Banner>
  );
}

interface ExistingSheetFieldsProps {
  idPrefix: string;
  sheetId: string;
  onSheet: (id: string) => void;
  tabName: string;
  onTabName: (name: string) => void;
  showSheetError: boolean;
  onReauthenticate: () => void;
  onDownloadCsv: () => void;
}

/** 'Use existing sheet': the sheet list, adding a sheet by link or id, and the tab. */
function ExistingSheetFields({
  idPrefix: id,
  sheetId,
  onSheet,
  tabName,
  onTabName,
  showSheetError,
  onReauthenticate,
  onDownloadCsv,
}: ExistingSheetFieldsProps) {
  const queryClient = useQueryClient();
  // Loaded when this mode is chosen, afresh each time.
  const sheets = useListSheets({ query: { staleTime: 0, retry: false, select: selectSheets } });
  const tabs = useListWorksheets(worksheetsPathId(sheetId), {
    query: {
      enabled: sheetId !== '',
      // Briefly fresh, so tabs that validate just returned are not fetched again.
      staleTime: 30_000,
      retry: false,
      select: selectTabNames,
    },
  });

  const [link, setLink] = useState('');
  const validating = useValidateSheet({
    mutation: {
      onSuccess: (sheet) => {
        // The sheet joins the list and its tabs are known: no need to ask again.
        queryClient.setQueryData<SheetsListResponse>(getListSheetsQueryKey(), (old) => {
          const list = old?.sheets ?? [];
          if (list.some((s) => s.id === sheet.id)) return old;
          return { success: old?.success ?? true, sheets: [...list, { id: sheet.id, name: sheet.name }] };
        });
        queryClient.setQueryData<WorksheetsResponse>(getListWorksheetsQueryKey(worksheetsPathId(sheet.id)), {
          success: true,
          worksheets: sheet.worksheets,
        });
        setLink('');
        onSheet(sheet.id);
      },
    },
  });
  const validate = () => validating.mutate({ data: { spreadsheetId: link.trim() } });

  if (sheets.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="text-indigo-600" /> Loading your Google Sheets...
      </p>
    );
  }
  if (sheets.isError) {
    const error = sheets.error;
    if (isReauthError(error)) return <ReauthPrompt message={reauthText(error)} onReauthenticate={onReauthenticate} />;
    if (isSheetsUnavailable(error)) return <UnavailableNotice message={error.message} onDownloadCsv={onDownloadCsv} />;
    const sessionProblem = error instanceof ApiError && error.status === 401;
    return (
      <Banner tone="error" title={sessionProblem ? "Failed to load your Google Sheets. Please ensure you're authenticated." : 'Failed to load your Google Sheets'}>
        {!sessionProblem && error.message}
      </Banner>
    );
  }

  const list = sheets.data;
  const validateError = validating.error;
  const tabNames = tabs.data ?? [];

  return (
    <>
      <div>
        <Label htmlFor={`${id}-sheet`}>Sheet</Label>
        <Select
          id={`${id}-sheet`}
          className="mt-1.5"
          value={sheetId}
          onChange={(e) => onSheet(e.target.value)}
          aria-invalid={showSheetError && !sheetId ? true : undefined}
          aria-describedby={`${id}-sheet-hint`}
        >
          <option value="">Select a sheet</option>
          {list.map((sheet) => (
            <option key={sheet.id} value={sheet.id}>
              {sheet.name}
            </option>
          ))}
        </Select>
        {!sheetId ? (
          <p
            id={`${id}-sheet-hint`}
            role={showSheetError ? 'alert' : undefined}
            className={cn('mt-1.5 text-xs', showSheetError ? 'font-medium text-red-700' : 'text-slate-500')}
          >
            Please select a sheet
            {list.length === 0 && '. You have none yet: add one by its link below, or create a new sheet.'}
          </p>
        ) : (
          <Hint id={`${id}-sheet-hint`}>Rows are added after the ones already there.</Hint>
        )}
      </div>

      <div>
        <Label htmlFor={`${id}-link`}>Add a sheet by link or ID</Label>
        <div className="mt-1.5 flex gap-2">
          <Input
            id={`${id}-link`}
            value={link}
            onChange={(e) => setLink(e.target.value)}
            onKeyDown={(e) => {
              // Enter adds the sheet here rather than submitting the export.
              if (e.key === 'Enter') {
                e.preventDefault();
                if (link.trim() && !validating.isPending) validate();
              }
            }}
            placeholder="https://docs.google.com/spreadsheets/d/..."
            maxLength={500}
          />
          <Button
            variant="secondary"
            size="field"
            disabled={!link.trim() || validating.isPending}
            onClick={validate}
          >
            {validating.isPending ? 'Checking...' : 'Add'}
          </Button>
        </div>
        {validateError &&
          (isReauthError(validateError) ? (
            <div className="mt-2">
              <ReauthPrompt message={reauthText(validateError)} onReauthenticate={onReauthenticate} />
            </div>
          ) : (
            <p role="alert" className="mt-1.5 text-xs font-medium text-red-700">
              {errorText(validateError)}
            </p>
          ))}
      </div>

      {sheetId && (
        <div>
          {tabs.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner className="text-indigo-600" /> Loading sheet tabs...
            </p>
          ) : tabs.isError ? (
            isReauthError(tabs.error) ? (
              <ReauthPrompt message={reauthText(tabs.error)} onReauthenticate={onReauthenticate} />
            ) : (
              <Banner tone="error" title="Failed to load sheet tabs">
                {tabs.error.message}
              </Banner>
            )
          ) : null}
          {!tabs.isPending && (
            <div className={cn(tabs.isError && 'mt-4')}>
              <Label htmlFor={`${id}-existing-tab`}>Tab name (optional)</Label>
              <Input
                id={`${id}-existing-tab`}
                className="mt-1.5"
                value={tabName}
                onChange={(e) => onTabName(e.target.value)}
                placeholder={tabNames[0] ? `${tabNames[0]} (first tab)` : 'First tab'}
                maxLength={100}
                aria-describedby={`${id}-existing-tab-hint`}
              />
              <Hint id={`${id}-existing-tab-hint`}>
                Leave blank to use the first tab. A name that does not exist yet creates a new tab with the header row.
              </Hint>
              {tabNames.length > 0 && (
                <div className="mt-2 flex flex-wrap items-center gap-1.5" role="group" aria-label="Tabs in this sheet">
                  {tabNames.map((name) => (
                    <button
                      key={name}
                      type="button"
                      onClick={() => onTabName(tabName === name ? '' : name)}
                      aria-pressed={tabName === name}
                      className={cn(
                        'rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset',
                        tabName === name
                          ? 'bg-indigo-600 text-white ring-indigo-600'
                          : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
                      )}
                    >
                      {name}
                    </button>
                  ))}
                </div>
              )}
            </div>
          )}
        </div>
      )}
    </>
  );
}

/** Sheets export is off on this server (503 sheets_unavailable): say so and offer CSV. */
export function UnavailableNotice({ message, onDownloadCsv }: { message: string; onDownloadCsv: () => void }) {
  return (
    <Banner
      tone="warning"
      actions={
        <Button size="sm" variant="secondary" onClick={onDownloadCsv}>
          Download CSV
        </Button>
      }
    >
      {message} Download your leads as CSV instead: the file opens in Google Sheets.
    </Banner>
  );
}
