import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useGetUsageBreakdown } from '../../api/gen/leads/leads';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { getListWorkspacesQueryKey, useUpdateWorkspace } from '../../api/gen/workspaces/workspaces';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { formatUsd } from '../../lib/money';

/** The highest monthly cap the API takes, US dollars (the contract's `maximum`). */
export const SPEND_CAP_MAX = 100_000;

/**
 * A typed cap as the API takes it (above 0, at most 100,000, whole cents), or what is wrong
 * with it. Blank is "no cap" (`null`).
 */
export function parseSpendCap(text: string): { cap: number | null } | { problem: string } {
  const value = text.trim().replace(/^\$/, '').replaceAll(',', '');
  if (value === '') return { cap: null };
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return { problem: 'Write the cap in dollars, with at most two decimals (e.g. 250 or 99.50).' };
  const cap = Number(value);
  if (cap <= 0) return { problem: 'The cap must be more than $0; leave it blank for no cap.' };
  if (cap > SPEND_CAP_MAX) return { problem: `The cap may be at most ${formatUsd(SPEND_CAP_MAX)}.` };
  return { cap };
}

/** This month (UTC) as the API names months, `YYYY-MM`. */
export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/**
 * Settings > Workspace > General, spend (issue #28 item 7): this month's spend on the
 * workspace's Google key against its monthly cap, which an owner sets or clears.
 */
export function SpendCard({ workspace }: { workspace: WorkspaceInfo }) {
  const id = useId();
  const queryClient = useQueryClient();
  const saved = workspace.monthlySpendCapUsd ?? null;
  const [text, setText] = useState(saved === null ? '' : String(saved));
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateWorkspace({
    mutation: { onSuccess: () => queryClient.invalidateQueries({ queryKey: getListWorkspacesQueryKey() }) },
  });
  useEffect(() => setText(saved === null ? '' : String(saved)), [saved]);
  const owner = workspace.role === 'owner';

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseSpendCap(text);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    update.mutate({ id: workspace.id, data: { monthlySpendCapUsd: parsed.cap } });
  }

  const spent = workspace.monthSpendUsd;
  const share = saved ? Math.min(100, Math.round((spent / saved) * 100)) : null;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Spend on the Google key</h2>
      <p className="mt-1 text-sm text-slate-600">
        This month (UTC): <strong className="text-slate-900">{formatUsd(spent)}</strong>
        {saved !== null ? ` of a ${formatUsd(saved)} monthly cap.` : ', no monthly cap.'}
      </p>
      {share !== null && (
        <div
          role="meter"
          aria-label="This month's spend against the cap"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={share}
          aria-valuetext={`${share}% of the cap`}
          className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100"
        >
          <div className={share >= 100 ? 'h-full bg-red-600' : 'h-full bg-indigo-600'} style={{ width: `${share}%` }} />
        </div>
      )}
      {owner ? (
        <form onSubmit={submit} noValidate className="mt-5 space-y-2">
          <Label htmlFor={`${id}-cap`}>Monthly cap (US dollars)</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={`${id}-cap`}
              inputMode="decimal"
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-cap-hint`}
              className="sm:max-w-48"
            />
            <Button type="submit" disabled={update.isPending} className="shrink-0">
              {update.isPending ? 'Saving...' : 'Save cap'}
            </Button>
          </div>
          <Hint id={`${id}-cap-hint`}>
            Blank: no cap. A search that would pass the cap stops with what it has; once it is reached, new searches wait for next
            month.
          </Hint>
          {problem && <Banner tone="error">{problem}</Banner>}
          {update.isError && <Banner tone="error">{update.error.message}</Banner>}
          {update.isSuccess && !problem && <p role="status" className="text-sm text-green-700">Saved.</p>}
        </form>
      ) : (
        <p className="mt-2 text-xs text-slate-600">Only an owner sets the cap.</p>
      )}
    </Card>
  );
}

/** Usage by member and by client for a month (`get_usage_breakdown`), for everyone in the workspace. */
export function UsageBreakdownCard() {
  const id = useId();
  const [month, setMonth] = useState(currentMonth());
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const usage = useGetUsageBreakdown(valid ? { month } : undefined, { query: { enabled: valid } });
  return (
    <Card>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Usage by member and client</h2>
        <div>
          <Label htmlFor={`${id}-month`}>Month</Label>
          <Input id={`${id}-month`} type="month" value={month} onChange={(event) => setMonth(event.target.value)} className="mt-1 w-auto" />
        </div>
      </div>
      {usage.isPending && valid && (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the usage...
        </p>
      )}
      {usage.isError && (
        <Banner tone="error" className="mt-4">
          {usage.error.message}
        </Banner>
      )}
      {usage.data && (
        <>
          <p className="mt-3 text-sm text-slate-600">
            {usage.data.total.searches} searches, {usage.data.total.leads} leads, {formatUsd(usage.data.total.costUsd)} in{' '}
            {usage.data.month}
            {usage.data.total.lookupsUsd > 0
              ? `, of which ${formatUsd(usage.data.total.lookupsUsd)} on estimates and places located for the map.`
              : '.'}
          </p>
          <SpendTable
            caption="By member"
            first="Member"
            rows={usage.data.members.map((m) => ({ key: m.userId, name: m.email, ...m }))}
          />
          <SpendTable
            caption="By client"
            first="Client"
            rows={usage.data.clients.map((c) => ({ key: c.client ?? '', name: c.client ?? 'No client', ...c }))}
          />
        </>
      )}
    </Card>
  );
}

interface SpendRow {
  key: string;
  name: string;
  searches: number;
  leads: number;
  costUsd: number;
}

function SpendTable({ caption, first, rows }: { caption: string; first: string; rows: SpendRow[] }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="text-left text-sm font-medium text-slate-800">{caption}</caption>
        <thead className="text-xs text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {first}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Searches
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Leads
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Cost
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="py-2 text-slate-600">
                No searches this month.
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="max-w-48 truncate py-2 pr-3 font-normal text-slate-900">
                  {row.name}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{row.searches}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{row.leads}</td>
                <td className="py-2 text-right tabular-nums">{formatUsd(row.costUsd)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
