import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../lib/session/auth-context';
import { fakeAuth } from '../../test/fake-auth';
import { renderWithProviders } from '../../test/render';
import { FaqAccordion } from './faq-accordion';
import { PricingSection } from './pricing-section';

describe('PricingSection', () => {
  it('toggles between $29/month and $99/year with the yearly saving', async () => {
    const user = userEvent.setup();
    await renderWithProviders(<PricingSection />, {
      wrap: (node) => <AuthContext.Provider value={fakeAuth({ isAuthenticated: false, user: null, token: null })}>{node}</AuthContext.Provider>,
    });
    expect(screen.getByTestId('plan-price')).toHaveTextContent('$29/month');
    expect(screen.queryByText('Save $249!')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(screen.getByTestId('plan-price')).toHaveTextContent('$99/year');
    expect(screen.getByText('Save $249!')).toBeInTheDocument();
    expect(screen.getByText(/\$8\.25\/month/)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Yearly' })).toHaveAttribute('aria-checked', 'true');
  });
});

describe('FaqAccordion', () => {
  const items = [
    { question: 'Q1', answer: 'A1' },
    { question: 'Q2', answer: 'A2' },
    { question: 'Q3', answer: 'A3' },
  ];

  it('opens the first item initially and keeps at most one open', async () => {
    const user = userEvent.setup();
    await renderWithProviders(<FaqAccordion items={items} />);
    const q = (name: string) => screen.getByRole('button', { name });
    expect(q('Q1')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('A1')).toBeVisible();
    expect(screen.getByText('A2')).not.toBeVisible();

    await user.click(q('Q2'));
    expect(q('Q1')).toHaveAttribute('aria-expanded', 'false');
    expect(q('Q2')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('A1')).not.toBeVisible();

    await user.click(q('Q2'));
    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0);
  });
});
