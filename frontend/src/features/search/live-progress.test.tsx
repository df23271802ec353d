import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LiveProgress } from './live-progress';

const names = (n: number) => Array.from({ length: n }, (_, i) => `Biz ${i + 1}`);

describe('LiveProgress', () => {
  it('shows the note only above 5 names', () => {
    const { rerender } = render(<LiveProgress typeLabel="Cafe" location="Paris" names={names(5)} found={5} total={9} />);
    expect(screen.queryByText('Showing latest businesses found')).not.toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    rerender(<LiveProgress typeLabel="Cafe" location="Paris" names={names(6)} found={6} total={9} />);
    expect(screen.getByText('Showing latest businesses found')).toBeInTheDocument();
  });

  it('shows the first email of a lead beside its name once its site was read', () => {
    render(
      <LiveProgress
        typeLabel="Cafe"
        location="Paris"
        names={['Biz 1', 'Biz 2']}
        liveIds={['p1', 'p2']}
        contacts={{ p1: { emails: ['a@biz1.example', 'b@biz1.example'], socials: {} } }}
        found={2}
        total={2}
      />,
    );
    const [first, second] = screen.getAllByRole('listitem');
    expect(first).toHaveTextContent('Biz 1a@biz1.example +1');
    expect(second).toHaveTextContent(/^Biz 2$/);
  });

  it("shows a full search's areas, leads and cost so far", () => {
    render(
      <LiveProgress
        typeLabel="Dentist"
        location="Houston, TX"
        names={names(3)}
        found={3}
        total={0}
        progress={{
          areasProbed: 120,
          areasFetched: 3,
          areasPlanned: 12,
          leads: 3,
          placesFound: 1500,
          billableRequests: 4,
          costUsd: 0.14,
          estimatedCostUsd: 2.7,
          estimatedPlaces: 1500,
        }}
      />,
    );
    expect(screen.getByText('Fetching: 3 of about 1,500 · $0.14 so far (about $2.70 in all)')).toBeInTheDocument();
  });

  it('offers Cancel on the card when the search can be cancelled (issue #26 item 6)', async () => {
    const { fireEvent } = await import('@testing-library/react');
    const onCancel = vi.fn();
    const { rerender } = render(<LiveProgress typeLabel="Dentists" location="Houston" names={[]} found={0} total={0} onCancel={onCancel} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel search for Dentists in Houston' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    rerender(<LiveProgress typeLabel="Dentists" location="Houston" names={[]} found={0} total={0} onCancel={onCancel} cancelling />);
    expect(screen.getByRole('button', { name: 'Cancel search for Dentists in Houston' })).toBeDisabled();
    rerender(<LiveProgress typeLabel="Dentists" location="Houston" names={[]} found={0} total={0} />);
    expect(screen.queryByRole('button', { name: /Cancel search for/ })).not.toBeInTheDocument();
  });
});
