import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { getListSavedSearchesQueryKey, useCreateSavedSearch, useUpdateSavedSearch } from '../../api/gen/leads/leads';
import type { DeliveryChoices } from '../../api/gen/model/deliveryChoices';
import type { SavedSearchInfo } from '../../api/gen/model/savedSearchInfo';
import type { ScheduleSpec } from '../../api/gen/model/scheduleSpec';
import { useGetSheetsAuthStatus } from '../../api/gen/sheets/sheets';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClasses } from '../../components/ui/button';
import { Hint, Input, Label } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import type { SearchQuery } from '../../lib/lead';
import { ScheduleFields } from './schedule-fields';
import { defaultSchedule, scheduleInWords, scheduleToSpec, specToSchedule, type ScheduleChoice } from './schedule';

/** A monitor's name: 1 to 100 characters (the API's rule). */
export const NAME_MAX = 100;

export interface SaveMonitorDialogProps {
  /** The search as the form would send it. */
  query: SearchQuery;
  /** What the form's business type reads as ("Dentists"), for the default name. */
  typeLabel?: string;
  onClose: () => void;
}

/** The delivery choices as the form holds them. */
interface DeliveryForm {
  email: boolean;
  /** An address the monitor mails instead of its creator's (set through the API): kept as it is. */
  emailTo?: string;
  webhook: boolean;
  sheet: boolean;
  spreadsheet: string;
  tab: string;
  /** Set through the API ("deliver empty runs too"): kept as it is. */
  notifyWhenEmpty?: boolean;
}

/** The API's delivery for the form's choices: only what was ticked. */
export function deliveryChoices(form: DeliveryForm): DeliveryChoices {
  const delivery: DeliveryChoices = {};
  if (form.email) delivery.email = form.emailTo ?? true;
  if (form.webhook) delivery.webhook = true;
  if (form.sheet && form.spreadsheet.trim() !== '') {
    delivery.sheet = { spreadsheetId: form.spreadsheet.trim(), ...(form.tab.trim() ? { tab: form.tab.trim() } : {}) };
  }
  if (form.notifyWhenEmpty) delivery.notifyWhenEmpty = true;
  return delivery;
}

/** A saved monitor's deliveries as the form holds them. */
export function deliveryForm(delivery: DeliveryChoices): DeliveryForm {
  return {
    email: Boolean(delivery.email),
    ...(typeof delivery.email === 'string' ? { emailTo: delivery.email } : {}),
    webhook: delivery.webhook === true,
    sheet: Boolean(delivery.sheet),
    spreadsheet: delivery.sheet?.spreadsheetId ?? '',
    tab: delivery.sheet?.tab ?? '',
    ...(delivery.notifyWhenEmpty ? { notifyWhenEmpty: true } : {}),
  };
}

/**
 * "Save as monitor" (issue #29 item 7): a name, when it runs (in words, in the browser's
 * time zone; sent as five-field cron and the zone), "Only new places", and where each
 * run's new places go. Creates it with `create_saved_search`.
 */
export function SaveMonitorDialog({ query, typeLabel, onClose }: SaveMonitorDialogProps) {
  const name = `${typeLabel || query.businessType} in ${query.location}`.slice(0, NAME_MAX);
  return <MonitorDialog search={query} initial={{ name, schedule: defaultSchedule(), onlyNew: true }} onClose={onClose} />;
}

/**
 * A monitor's name, schedule, "Only new places" and deliveries, changed in place with
 * `update_saved_search`; its search and whether it is paused stay as they are. A schedule
 * made through the API that the form cannot show (any cron) is kept unless the user
 * chooses another.
 */
export function EditMonitorDialog({ monitor, onClose }: { monitor: SavedSearchInfo; onClose: () => void }) {
  const saved = monitor.schedule ?? null;
  const initial: MonitorFields = {
    name: monitor.name,
    schedule: saved ? specToSchedule(saved) : defaultSchedule(),
    kept: saved && !specToSchedule(saved) ? saved : null,
    scheduled: saved !== null,
    onlyNew: monitor.onlyNew,
    delivery: deliveryForm(monitor.delivery),
  };
  return <MonitorDialog search={monitor.search} initial={initial} editing={monitor} onClose={onClose} />;
}

/** What the dialog starts from. */
interface MonitorFields {
  name: string;
  /** The form's schedule; null when the saved one is an expression it cannot show. */
  schedule: ScheduleChoice | null;
  /** A saved schedule the form cannot show, kept as it is unless another is chosen. */
  kept?: ScheduleSpec | null;
  scheduled?: boolean;
  onlyNew: boolean;
  delivery?: DeliveryForm;
}

function MonitorDialog({
  search,
  initial,
  editing,
  onClose,
}: {
  search: SearchQuery | SavedSearchInfo['search'];
  initial: MonitorFields;
  editing?: SavedSearchInfo;
  onClose: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initial.name);
  const [scheduled, setScheduled] = useState(initial.scheduled ?? true);
  const [schedule, setSchedule] = useState<ScheduleChoice>(() => initial.schedule ?? defaultSchedule());
  const [kept, setKept] = useState<ScheduleSpec | null>(initial.kept ?? null);
  const [onlyNew, setOnlyNew] = useState(initial.onlyNew);
  const [delivery, setDelivery] = useState<DeliveryForm>(
    () => initial.delivery ?? { email: false, webhook: false, sheet: false, spreadsheet: '', tab: '' },
  );
  const [problem, setProblem] = useState<string | null>(null);
  const sheets = useGetSheetsAuthStatus({ query: { staleTime: 60_000, retry: false } });
  // A monitor that delivers to a sheet already keeps the choice visible while Sheets is reconnected.
  const sheetsConnected = sheets.data?.authenticated === true || (editing !== undefined && initial.delivery?.sheet === true);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: getListSavedSearchesQueryKey() });
  const create = useCreateSavedSearch({ mutation: { onSuccess: refresh } });
  const update = useUpdateSavedSearch({
    mutation: {
      onSuccess: () => {
        refresh();
        onClose();
      },
    },
  });
  const saving = editing ? update : create;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > NAME_MAX) return setProblem(`Give it a name of 1 to ${NAME_MAX} characters.`);
    const spec = scheduled ? (kept ?? scheduleToSpec(schedule)) : null;
    if (scheduled && !spec) return setProblem('Choose a time, like 09:00.');
    if (delivery.sheet && delivery.spreadsheet.trim() === '') return setProblem('Paste the spreadsheet link, or untick Google Sheet.');
    setProblem(null);
    const data = { name: trimmed, search, schedule: spec, onlyNew, delivery: deliveryChoices(delivery) };
    if (editing) update.mutate({ id: editing.id, data: { ...data, paused: editing.paused } });
    else create.mutate({ data });
  }

  const change = (patch: Partial<DeliveryForm>) => setDelivery((current) => ({ ...current, ...patch }));

  return (
    <Modal open onClose={onClose} title={editing ? `Edit ${editing.name}` : 'Save as monitor'} className="max-w-xl">
      {create.isSuccess ? (
        <div className="space-y-4 text-sm text-slate-700">
          <p role="status">
            <span className="font-medium text-slate-900">{create.data.name}</span> is saved.
            {create.data.schedule ? ' It runs on its schedule; you can also run it now from Monitors.' : ' Run it from Monitors whenever you like.'}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Link to="/monitors" className={buttonClasses('primary')}>
              Open Monitors
            </Link>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          {!editing && (
            <p className="text-sm text-slate-600">A monitor runs this search again by itself and tells you what is new since the last run.</p>
          )}
          <div>
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input id={`${id}-name`} className="mt-1.5" value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} required />
          </div>
          <div className="flex items-start gap-3">
            <input
              id={`${id}-scheduled`}
              type="checkbox"
              className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600"
              checked={scheduled}
              onChange={(e) => setScheduled(e.target.checked)}
            />
            <label htmlFor={`${id}-scheduled`} className="text-sm font-medium text-slate-800">
              Run on a schedule
            </label>
          </div>
          {scheduled && kept && (
            <p className="text-sm text-slate-700">
              {scheduleInWords(kept)}.{' '}
              <button type="button" className="font-semibold text-indigo-700 hover:text-indigo-600" onClick={() => setKept(null)}>
                Choose another schedule
              </button>
            </p>
          )}
          {scheduled && !kept && <ScheduleFields idPrefix={id} value={schedule} onChange={setSchedule} />}
          <div className="flex items-start gap-3">
            <input
              id={`${id}-only-new`}
              type="checkbox"
              className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600"
              checked={onlyNew}
              onChange={(e) => setOnlyNew(e.target.checked)}
              aria-describedby={`${id}-only-new-hint`}
            />
            <div>
              <label htmlFor={`${id}-only-new`} className="text-sm font-medium text-slate-800">
                Only new places
              </label>
              <Hint id={`${id}-only-new-hint`}>Each run sends only places this workspace has not seen before, and pays only for them.</Hint>
            </div>
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Send each run&rsquo;s new places</legend>
            <Check id={`${id}-email`} checked={delivery.email} onChange={(email) => change({ email })} label="By email to me" />
            <Check id={`${id}-webhook`} checked={delivery.webhook} onChange={(webhook) => change({ webhook })} label="To this workspace's webhooks" />
            {sheetsConnected && (
              <Check id={`${id}-sheet`} checked={delivery.sheet} onChange={(sheet) => change({ sheet })} label="To a Google Sheet tab" />
            )}
            {sheetsConnected && delivery.sheet && (
              <div className="grid gap-3 pl-7 sm:grid-cols-2">
                <div>
                  <Label htmlFor={`${id}-spreadsheet`}>Spreadsheet link or id</Label>
                  <Input id={`${id}-spreadsheet`} className="mt-1.5" value={delivery.spreadsheet} onChange={(e) => change({ spreadsheet: e.target.value })} />
                </div>
                <div>
                  <Label htmlFor={`${id}-tab`}>Tab</Label>
                  <Input id={`${id}-tab`} className="mt-1.5" placeholder="The monitor's name" value={delivery.tab} maxLength={NAME_MAX} onChange={(e) => change({ tab: e.target.value })} />
                </div>
              </div>
            )}
          </fieldset>
          {(problem || saving.isError) && (
            <p role="alert" className="text-sm text-red-700">
              {problem ?? saving.error?.message}
            </p>
          )}
          {saving.isError && !problem && <Banner tone="error">{editing ? 'Your changes were not saved.' : 'The monitor was not saved.'}</Banner>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving.isPending}>
              {saving.isPending && <Spinner />}
              {editing ? 'Save changes' : 'Save monitor'}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function Check({ id, checked, onChange, label }: { id: string; checked: boolean; onChange: (checked: boolean) => void; label: string }) {
  return (
    <div className="flex items-center gap-3">
      <input id={id} type="checkbox" className="size-4 rounded border-slate-300 text-indigo-600" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}
