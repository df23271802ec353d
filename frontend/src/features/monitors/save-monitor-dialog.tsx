import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { getListSavedSearchesQueryKey, useCreateSavedSearch } from '../../api/gen/leads/leads';
import type { DeliveryChoices } from '../../api/gen/model/deliveryChoices';
import { useGetSheetsAuthStatus } from '../../api/gen/sheets/sheets';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClasses } from '../../components/ui/button';
import { Hint, Input, Label } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import type { SearchQuery } from '../../lib/lead';
import { ScheduleFields } from './schedule-fields';
import { defaultSchedule, scheduleToSpec, type ScheduleChoice } from './schedule';

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
  webhook: boolean;
  sheet: boolean;
  spreadsheet: string;
  tab: string;
}

/** The API's delivery for the form's choices: only what was ticked. */
export function deliveryChoices(form: DeliveryForm): DeliveryChoices {
  const delivery: DeliveryChoices = {};
  if (form.email) delivery.email = true;
  if (form.webhook) delivery.webhook = true;
  if (form.sheet && form.spreadsheet.trim() !== '') {
    delivery.sheet = { spreadsheetId: form.spreadsheet.trim(), ...(form.tab.trim() ? { tab: form.tab.trim() } : {}) };
  }
  return delivery;
}

/**
 * "Save as monitor" (issue #29 item 7): a name, when it runs (in words, in the browser's
 * time zone; sent as five-field cron and the zone), "Only new places", and where each
 * run's new places go. Creates it with `create_saved_search`.
 */
export function SaveMonitorDialog({ query, typeLabel, onClose }: SaveMonitorDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(() => `${typeLabel || query.businessType} in ${query.location}`.slice(0, NAME_MAX));
  const [scheduled, setScheduled] = useState(true);
  const [schedule, setSchedule] = useState<ScheduleChoice>(() => defaultSchedule());
  const [onlyNew, setOnlyNew] = useState(true);
  const [delivery, setDelivery] = useState<DeliveryForm>({ email: false, webhook: false, sheet: false, spreadsheet: '', tab: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const sheets = useGetSheetsAuthStatus({ query: { staleTime: 60_000, retry: false } });
  const sheetsConnected = sheets.data?.authenticated === true;
  const create = useCreateSavedSearch({
    mutation: { onSuccess: () => void queryClient.invalidateQueries({ queryKey: getListSavedSearchesQueryKey() }) },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > NAME_MAX) return setProblem(`Give it a name of 1 to ${NAME_MAX} characters.`);
    const spec = scheduled ? scheduleToSpec(schedule) : null;
    if (scheduled && !spec) return setProblem('Choose a time, like 09:00.');
    if (delivery.sheet && delivery.spreadsheet.trim() === '') return setProblem('Paste the spreadsheet link, or untick Google Sheet.');
    setProblem(null);
    create.mutate({ data: { name: trimmed, search: query, schedule: spec, onlyNew, delivery: deliveryChoices(delivery) } });
  }

  const change = (patch: Partial<DeliveryForm>) => setDelivery((current) => ({ ...current, ...patch }));

  return (
    <Modal open onClose={onClose} title="Save as monitor" className="max-w-xl">
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
          <p className="text-sm text-slate-600">A monitor runs this search again by itself and tells you what is new since the last run.</p>
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
          {scheduled && <ScheduleFields idPrefix={id} value={schedule} onChange={setSchedule} />}
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
          {(problem || create.isError) && (
            <p role="alert" className="text-sm text-red-700">
              {problem ?? create.error?.message}
            </p>
          )}
          {create.isError && !problem && <Banner tone="error">The monitor was not saved.</Banner>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Spinner />}
              Save monitor
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
