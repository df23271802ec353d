import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExportOutcomeBanner, RESULTS_CLEAR_MS, useExportOutcome } from './export-outcome';

afterEach(() => vi.useRealTimers());

describe('ExportOutcomeBanner', () => {
  it("success: green, the server's message, 'View in Google Sheets' in a new tab, and a dismiss control", async () => {
    const onDismiss = vi.fn();
    render(
      <ExportOutcomeBanner
        outcome={{ kind: 'success', message: "Exported 3 leads to 'Austin cafe Leads' (Sheet1)", sheetUrl: 'https://docs.google.com/spreadsheets/d/x/edit#gid=0' }}
        onDismiss={onDismiss}
      />,
    );
    const banner = screen.getByRole('status');
    expect(banner).toHaveAttribute('data-tone', 'success');
    expect(banner).toHaveTextContent("Exported 3 leads to 'Austin cafe Leads' (Sheet1)");
    const link = screen.getByRole('link', { name: 'View in Google Sheets' });
    expect(link).toHaveAttribute('href', 'https://docs.google.com/spreadsheets/d/x/edit#gid=0');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('failure: red, the message and CSV offered as the backup', async () => {
    const onDownloadCsv = vi.fn();
    render(<ExportOutcomeBanner outcome={{ kind: 'error', message: 'Export failed' }} onDismiss={() => {}} onDownloadCsv={onDownloadCsv} />);
    const banner = screen.getByRole('alert');
    expect(banner).toHaveAttribute('data-tone', 'error');
    expect(banner).toHaveTextContent('Export failed');
    expect(banner).toHaveTextContent(/CSV as a backup/);
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(onDownloadCsv).toHaveBeenCalledTimes(1);
  });
});

describe('useExportOutcome', () => {
  const success = { kind: 'success', message: 'ok', sheetUrl: 'u' } as const;

  it('clears the results 3 s after a success; the banner stays until dismissed', () => {
    vi.useFakeTimers();
    const onResultsExpired = vi.fn();
    const { result } = renderHook(() => useExportOutcome({ onResultsExpired }));
    act(() => result.current.report(success));
    act(() => vi.advanceTimersByTime(RESULTS_CLEAR_MS - 1));
    expect(onResultsExpired).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onResultsExpired).toHaveBeenCalledTimes(1);
    expect(result.current.outcome).toEqual(success);
    act(() => result.current.dismiss());
    expect(result.current.outcome).toBeNull();
  });

  it('a failure keeps the results; a new search (reset) cancels a pending clear', () => {
    vi.useFakeTimers();
    const onResultsExpired = vi.fn();
    const { result } = renderHook(() => useExportOutcome({ onResultsExpired }));
    act(() => result.current.report({ kind: 'error', message: 'Export failed' }));
    act(() => vi.advanceTimersByTime(10_000));
    expect(onResultsExpired).not.toHaveBeenCalled();

    act(() => result.current.report(success));
    act(() => vi.advanceTimersByTime(1000));
    act(() => result.current.reset());
    act(() => vi.advanceTimersByTime(10_000));
    expect(onResultsExpired).not.toHaveBeenCalled();
    expect(result.current.outcome).toBeNull();
  });
});
