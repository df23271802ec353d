import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SearchNotice } from './search-notice';

describe('SearchNotice', () => {
  it("shows the server's notice as an informational banner, and nothing without one", () => {
    const { rerender, container } = render(<SearchNotice notice="Stopped at your $1.00 budget: about half of the area was covered." />);
    const banner = screen.getByRole('status');
    expect(banner).toHaveAttribute('data-tone', 'info');
    expect(banner).toHaveTextContent('About these results');
    expect(banner).toHaveTextContent('Stopped at your $1.00 budget: about half of the area was covered.');
    rerender(<SearchNotice notice={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
