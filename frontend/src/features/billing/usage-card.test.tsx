import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UsageStats } from '../../api/gen/model/usageStats';
import { UsageCard } from './usage-card';

type Overrides = {
  percentage?: number;
  current?: number;
  limit?: number | null;
  leadsThisMonth?: number;
  status?: Partial<UsageStats['status']>;
  tier?: UsageStats['tier'];
};

/**
 * Usage stats as the API sends them. A `null` limit or a missing `leadsThisMonth` is
 * what an older server sent (the contract now requires both): the card still copes.
 */
function stats(overrides: Overrides = {}): UsageStats {
  const usage = {
    current: overrides.current ?? 100,
    limit: overrides.limit === undefined ? 1000 : overrides.limit,
    remaining: 900,
    percentage: overrides.percentage ?? 10,
    leadsToday: 0,
    ...(overrides.leadsThisMonth === undefined ? {} : { leadsThisMonth: overrides.leadsThisMonth }),
  };
  return {
    usage: usage as UsageStats['usage'],
    period: { resetDate: '2025-02-01', daysUntilReset: 9 },
    apiKey: { configured: true },
    tier: overrides.tier ?? { current: 'free', name: 'Free' },
    status: { isOverLimit: false, isNearLimit: false, isApproachingLimit: false, ...overrides.status },
    recommendations: [],
  };
}

const bar = () => screen.getByTestId('usage-bar');

describe('UsageCard', () => {
  it('shows no warning below the thresholds', () => {
    render(<UsageCard stats={stats()} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(bar()).toHaveStyle({ width: '10%' });
    expect(bar()).toHaveClass('bg-indigo-600');
  });

  it('approaching: yellow with the percent used', () => {
    render(<UsageCard stats={stats({ percentage: 76.4, status: { isApproachingLimit: true } })} />);
    const warning = screen.getByRole('status');
    expect(warning).toHaveTextContent('76%');
    expect(warning).toHaveAttribute('data-level', 'approaching');
    expect(warning.className).toContain('yellow');
    expect(bar()).toHaveClass('bg-yellow-400');
  });

  it("near: orange 'Nearly at your limit' (wins over approaching)", () => {
    render(<UsageCard stats={stats({ percentage: 92, status: { isApproachingLimit: true, isNearLimit: true } })} />);
    const warning = screen.getByRole('status');
    expect(warning).toHaveTextContent('Nearly at your limit');
    expect(warning.className).toContain('orange');
    expect(screen.queryByText('Limit Exceeded')).not.toBeInTheDocument();
  });

  it("over: red 'Monthly limit exceeded', the 'Limit Exceeded' badge, and the bar capped at 100%", () => {
    render(<UsageCard stats={stats({ percentage: 135, current: 1350, status: { isApproachingLimit: true, isNearLimit: true, isOverLimit: true } })} />);
    const warning = screen.getByRole('status');
    expect(warning).toHaveTextContent('Monthly limit exceeded');
    expect(warning.className).toContain('red');
    expect(screen.getByText('Limit Exceeded')).toBeInTheDocument();
    expect(bar()).toHaveStyle({ width: '100%' });
  });

  it('uses the default limit of 10,000 when the server gives none', () => {
    render(<UsageCard stats={stats({ limit: null })} />);
    expect(screen.getByText(/10,000 searches/)).toBeInTheDocument();
  });

  it('free tier counts searches against the limit and shows the leads delivered apart', () => {
    // The API's usage.current counts searches; leadsThisMonth counts leads.
    render(<UsageCard stats={stats({ current: 1, limit: 10000, leadsThisMonth: 60 })} />);
    expect(screen.getByText(/10,000 searches/)).toBeInTheDocument();
    expect(screen.queryByText(/10,000 leads/)).not.toBeInTheDocument();
    expect(screen.getByText('60 leads this month')).toBeInTheDocument();
  });

  it('paid tier shows leads this month without a limit bar', () => {
    render(<UsageCard stats={stats({ current: 12, leadsThisMonth: 4321, tier: { current: 'pro', name: 'Pro' } })} />);
    expect(screen.getByText('4,321')).toBeInTheDocument();
    expect(screen.getByText('leads this month')).toBeInTheDocument();
    expect(screen.queryByTestId('usage-bar')).not.toBeInTheDocument();
  });

  it('paid tier falls back to current when the server sends no lead count', () => {
    render(<UsageCard stats={stats({ current: 4321, tier: { current: 'pro', name: 'Pro' } })} />);
    expect(screen.getByText('4,321')).toBeInTheDocument();
  });

  it("free tier shows today's leads against the daily allowance, and when it is reached (issue #26 item 1)", () => {
    const withDaily = (leadsToday: number) => {
      const base = stats();
      return { ...base, usage: { ...base.usage, leadsToday, dailyLeadLimit: 1000 } };
    };
    const { unmount } = render(<UsageCard stats={withDaily(880)} />);
    expect(screen.getByText('880 / 1,000 leads today · 120 left')).toBeInTheDocument();
    unmount();
    render(<UsageCard stats={withDaily(1000)} />);
    expect(screen.getByText('1,000 / 1,000 leads today · daily limit reached, resets at midnight UTC')).toBeInTheDocument();
  });

  it("shows 'Failed to load usage data' on error", () => {
    render(<UsageCard stats={undefined} error />);
    expect(screen.getByText('Failed to load usage data')).toBeInTheDocument();
  });
});
