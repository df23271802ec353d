import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { DeliveryCard } from './delivery-card';

const base = { kind: 'none', email: 'jane@agency.example', spreadsheetId: null, spreadsheetName: null, emailAvailable: true, sheetsAvailable: true };
let sent: unknown[];
let answer: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  sent = [];
  answer = (body) => jsonResponse({ ...base, ...body });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url !== '/api/user/delivery') return jsonResponse({}, 404);
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        sent.push(body);
        return answer(body);
      }
      return jsonResponse(base);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('DeliveryCard', () => {
  it('chooses email, says where it goes, and saves it', async () => {
    const user = userEvent.setup();
    await renderWithProviders(<DeliveryCard />);
    expect(await screen.findByText('To jane@agency.example.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Nowhere/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Email me the CSV/ }));
    await user.click(screen.getByRole('button', { name: 'Save delivery' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(sent).toEqual([{ kind: 'email', spreadsheetId: null }]);
  });

  it('a spreadsheet needs its link, and the server refusal is shown as it says', async () => {
    answer = () => jsonResponse({ error: 'not_found', message: 'Spreadsheet not found or you do not have access' }, 404);
    const user = userEvent.setup();
    await renderWithProviders(<DeliveryCard />);
    await user.click(await screen.findByRole('radio', { name: /Add a tab to a spreadsheet/ }));
    await user.type(screen.getByLabelText('Spreadsheet link or id'), 'https://docs.google.com/spreadsheets/d/abc');
    await user.click(screen.getByRole('button', { name: 'Save delivery' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Spreadsheet not found or you do not have access');
    expect(sent).toEqual([{ kind: 'sheets', spreadsheetId: 'https://docs.google.com/spreadsheets/d/abc' }]);
  });

  it('email cannot be chosen on a server without mail', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ ...base, emailAvailable: false })));
    await renderWithProviders(<DeliveryCard />);
    expect(await screen.findByText('Not set up on this server.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Email me the CSV/ })).toBeDisabled();
  });
});
