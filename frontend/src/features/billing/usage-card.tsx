import type { ReactNode } from 'react';
import { useGetUsage } from '../../api/gen/leads/leads';
import type { UsageResponse } from '../../api/gen/model/usageResponse';
import type { UsageStats } from '../../api/gen/model/usageStats';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import { DEFAULT_MONTHLY_LIMIT, isFreeTier, usageBarWidth, usageWarning, type UsageWarning } from './usage-level';

const number = new Intl.NumberFormat('en-US');

const barColours = {
  ok: 'bg-indigo-600',
  approaching: 'bg-yellow-400',
  near: 'bg-orange-500',
  over: 'bg-red-600',
} as const;

export interface UsageCardProps {
  stats: UsageStats | undefined;
  isLoading?: boolean;
  error?: boolean;
  /** A link under the card (e.g. View Details). */
  footer?: ReactNode;
}

/** Usage this month with warning levels (spec section 4, Usage card). */
export function UsageCard({ stats, isLoading, error, footer }: UsageCardProps) {
  return (
    <Card className="flex flex-col">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">Usage this month</h2>
        {stats && (
          <div className="flex flex-wrap justify-end gap-1.5">
            {usageWarning(stats.status) === 'over' && <Badge tone="red">Limit Exceeded</Badge>}
            <Badge tone={isFreeTier(stats.tier) ? 'gray' : 'indigo'}>{stats.tier.name}</Badge>
          </div>
        )}
      </div>
      <div className="mt-4 flex-1">
        {isLoading ? (
          <div className="space-y-3" aria-label="Loading usage" role="status">
            <div className="h-7 w-32 animate-pulse rounded bg-slate-100" />
            <div className="h-2 w-full animate-pulse rounded bg-slate-100" />
          </div>
        ) : error || !stats ? (
          <p className="text-sm text-red-700">Failed to load usage data</p>
        ) : (
          <UsageDetails stats={stats} />
        )}
      </div>
      {footer && <div className="mt-5 border-t border-slate-100 pt-4">{footer}</div>}
    </Card>
  );
}

function UsageDetails({ stats }: { stats: UsageStats }) {
  const level = usageWarning(stats.status);
  const percent = Math.round(stats.usage.percentage);

  // The server counts searches against the monthly allowance and reports the leads
  // delivered separately (older servers had only `current`).
  const leads = stats.usage.leadsThisMonth ?? stats.usage.current;

  if (!isFreeTier(stats.tier)) {
    return (
      <div>
        <p className="text-3xl font-bold text-slate-900">{number.format(leads)}</p>
        <p className="text-sm text-slate-600">leads this month</p>
        <WarningLine level={level} percent={percent} />
        <Recommendations items={stats.recommendations} />
      </div>
    );
  }

  const limit = stats.usage.limit ?? DEFAULT_MONTHLY_LIMIT;
  return (
    <div>
      <p className="text-sm text-slate-600">
        <span className="text-3xl font-bold text-slate-900">{number.format(stats.usage.current)}</span> /{' '}
        {number.format(limit)} searches
      </p>
      <div
        className="mt-3 h-2 w-full overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Monthly usage"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(usageBarWidth(stats.usage.percentage))}
      >
        <div
          data-testid="usage-bar"
          className={cn('h-full rounded-full transition-all', barColours[level])}
          style={{ width: `${usageBarWidth(stats.usage.percentage)}%` }}
        />
      </div>
      <p className="mt-2 text-xs text-slate-500">
        {number.format(Math.max(0, stats.usage.remaining))} remaining · resets in {stats.period.daysUntilReset}{' '}
        {stats.period.daysUntilReset === 1 ? 'day' : 'days'}
      </p>
      {stats.usage.leadsThisMonth !== undefined && (
        <p className="mt-1 text-xs text-slate-500">
          {number.format(stats.usage.leadsThisMonth)} {stats.usage.leadsThisMonth === 1 ? 'lead' : 'leads'} this month
        </p>
      )}
      <DailyLeads stats={stats} />
      <WarningLine level={level} percent={percent} />
      <Recommendations items={stats.recommendations} />
    </div>
  );
}

/**
 * Today's leads against the daily allowance, when the plan has one (issue #26 item 1): a
 * full search stops there, so the card says how much of today is left.
 */
function DailyLeads({ stats }: { stats: UsageStats }) {
  const limit = stats.usage.dailyLeadLimit;
  if (limit == null) return null;
  const today = stats.usage.leadsToday ?? 0;
  const left = Math.max(0, limit - today);
  return (
    <p className={cn('mt-1 text-xs', left === 0 ? 'font-medium text-red-700' : 'text-slate-500')}>
      {number.format(today)} / {number.format(limit)} leads today
      {left === 0 ? ' · daily limit reached, resets at midnight UTC' : ` · ${number.format(left)} left`}
    </p>
  );
}

function WarningLine({ level, percent }: { level: UsageWarning; percent: number }) {
  if (level === 'ok') return null;
  const styles = {
    approaching: 'bg-yellow-50 text-yellow-800 ring-yellow-200',
    near: 'bg-orange-50 text-orange-800 ring-orange-200',
    over: 'bg-red-50 text-red-800 ring-red-200',
  } as const;
  const text = {
    approaching: `You've used ${percent}% of your monthly limit`,
    near: 'Nearly at your limit',
    over: 'Monthly limit exceeded',
  } as const;
  return (
    <p data-level={level} role="status" className={cn('mt-3 rounded-lg px-3 py-2 text-sm font-medium ring-1', styles[level])}>
      {text[level]}
    </p>
  );
}

function Recommendations({ items }: { items: string[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="mt-3 space-y-1 text-xs text-slate-600">
      {items.map((tip) => (
        <li key={tip} className="flex gap-1.5">
          <span aria-hidden="true" className="mt-1 size-1.5 shrink-0 rounded-full bg-indigo-400" />
          {tip}
        </li>
      ))}
    </ul>
  );
}

const selectStats = (answer: UsageResponse): UsageStats => answer.data;

/** The usage card wired to `GET /api/leads/usage`. */
export function UsageWidget({ footer }: { footer?: ReactNode }) {
  const query = useGetUsage({ query: { select: selectStats } });
  return <UsageCard stats={query.data} isLoading={query.isPending} error={query.isError} footer={footer} />;
}
