import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
});
