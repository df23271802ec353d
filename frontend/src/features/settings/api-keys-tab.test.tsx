import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetUsageQueryKey } from '../../api/gen/leads/leads';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { ApiKeysTab } from './api-keys-tab';

type Status = { has_key: boolean; key_preview: string | null; is_valid: boolean | null };
let status: Status;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  status = { has_key: true, key_preview: 'AIzaSy...1234', is_valid: null };
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/user/api-key/status') return jsonResponse({ api_key_status: status });
    if (url === '/api/user/api-key') {
      const key = JSON.parse(String(init?.body)).api_key as string;
      status = { has_key: key !== '', key_preview: key ? `${key.slice(0, 6)}...${key.slice(-4)}` : null, is_valid: null };
      return jsonResponse({ message: 'API key saved successfully' });
    }
    if (url === '/api/leads/check-api-key') return jsonResponse({ message: 'API key is valid and working', valid: true });
    if (url === '/api/leads/test-api-key') {
      status = { ...status, is_valid: true };
      return jsonResponse({ message: 'API key is valid', valid: true });
    }
    return jsonResponse({}, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const field = () => screen.getByLabelText('Places API key') as HTMLInputElement;
const statusCalls = () => fetchMock.mock.calls.filter((c) => c[0] === '/api/user/api-key/status').length;

describe('ApiKeysTab', () => {
  it("shows a team workspace's member the key's state and who may change it, with no control", async () => {
    await renderWithProviders(<ApiKeysTab canManage={false} />);
    expect(await screen.findByText(/This workspace's saved key: AIzaSy\.\.\.1234\./)).toBeInTheDocument();
    expect(screen.getByText(/Only an admin or owner of this workspace can save, test or remove its key\./)).toBeInTheDocument();
    expect(screen.queryByLabelText('Places API key')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText('An admin can test it from this tab.')).toBeInTheDocument();
  });

  it('tells a member when the workspace has no key yet', async () => {
    status = { has_key: false, key_preview: null, is_valid: null };
    await renderWithProviders(<ApiKeysTab canManage={false} />);
    expect(await screen.findByText(/This workspace has no key yet\./)).toBeInTheDocument();
  });

  it('prefills the masked preview and enables Save only for new non-blank text', async () => {
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();
    fireEvent.change(field(), { target: { value: '    ' } });
    expect(save).toBeDisabled();
    fireEvent.change(field(), { target: { value: 'AIzaNEWKEY0000' } });
    expect(save).toBeEnabled();
  });

  it("says 'Please enter a valid API key' when a blank key is submitted", async () => {
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));
    fireEvent.change(field(), { target: { value: '  ' } });
    fireEvent.submit(field().closest('form')!);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid API key');
    expect(fetchMock.mock.calls.some((c) => c[0] === '/api/user/api-key')).toBe(false);
  });

  it('saves the trimmed key, re-fetches the status, shows the new preview and clears the message after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));
    await user.clear(field());
    await user.type(field(), '  AIzaBRANDNEWKEY9876  ');
    const before = statusCalls();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByText('API key saved successfully');
    const saveCall = fetchMock.mock.calls.find((c) => c[0] === '/api/user/api-key')!;
    expect(JSON.parse(String(saveCall[1].body))).toEqual({ api_key: 'AIzaBRANDNEWKEY9876' });
    expect(statusCalls()).toBeGreaterThan(before);
    await waitFor(() => expect(field().value).toBe('AIzaBR...9876'));

    act(() => vi.advanceTimersByTime(2900));
    expect(screen.getByText('API key saved successfully')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('API key saved successfully')).not.toBeInTheDocument();
  });

  it("tests the key, shows 'API Key Active' after the re-fetch and clears the message after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await renderWithProviders(<ApiKeysTab />);
    expect(await screen.findByText('API Key Status Unknown')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test API Key' }));
    await screen.findByText('API key is valid');
    expect(await screen.findByText('API Key Active')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(2800));
    expect(screen.getByText('API key is valid')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByText('API key is valid')).not.toBeInTheDocument();
  });

  it('the how-to asks for Places API (New), not the legacy Places API alone', async () => {
    await renderWithProviders(<ApiKeysTab />);
    const steps = (await screen.findByRole('heading', { name: 'How to get a Google Places API key' })).nextElementSibling!;
    expect(steps).toHaveTextContent('Enable Places API (New) for that project');
    expect(steps).toHaveTextContent('Restrict the key to Places API (New)');
    expect(steps).toHaveTextContent('SERVICE_DISABLED');
  });

  it('tests a typed key as typed, without saving it or clearing the field (issue #26 item 5)', async () => {
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));
    const typed = 'AIzaSyD-0123456789abcdefghijklmnopqrstu';
    fireEvent.change(field(), { target: { value: typed } });
    fireEvent.click(screen.getByRole('button', { name: 'Test API Key' }));
    expect(await screen.findByText('API key is valid and working')).toBeInTheDocument();
    const check = fetchMock.mock.calls.find((c) => c[0] === '/api/leads/check-api-key');
    expect(JSON.parse(String(check?.[1]?.body))).toEqual({ apiKey: typed });
    expect(fetchMock.mock.calls.some((c) => c[0] === '/api/leads/test-api-key' || c[0] === '/api/user/api-key')).toBe(false);
    expect(field().value).toBe(typed);
  });

  it("waits as a whole until the key's status answers, so nothing drawn grows under the help card", async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation((url: string) =>
      url === '/api/user/api-key/status' ? new Promise<Response>((resolve) => (answer = resolve)) : Promise.resolve(jsonResponse({}, 404)),
    );
    await renderWithProviders(<ApiKeysTab />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your API key...');
    expect(screen.queryByText('How to get a Google Places API key')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Places API key')).not.toBeInTheDocument();

    await act(async () => answer(jsonResponse({ api_key_status: status })));
    // Both cards at once, the key's card complete: its status and its buttons.
    expect(await screen.findByText('How to get a Google Places API key')).toBeInTheDocument();
    expect(screen.getByTestId('api-key-status')).toHaveTextContent('API Key Status Unknown');
    expect(screen.getByRole('button', { name: 'Remove key' })).toBeInTheDocument();
    expect(field().value).toBe('AIzaSy...1234');
  });

  it('offers no Test button without a stored key', async () => {
    status = { has_key: false, key_preview: null, is_valid: null };
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(statusCalls()).toBe(1));
    await screen.findByText(/Paste the key you created/);
    expect(screen.queryByRole('button', { name: 'Test API Key' })).not.toBeInTheDocument();
  });

  it('saving or removing the key marks the usage stats stale (they say whether a key is configured); testing it does not', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
    const seedUsage = () => queryClient.setQueryData(getGetUsageQueryKey(), { success: true, data: {} });
    const usageStale = () => queryClient.getQueryState(getGetUsageQueryKey())?.isInvalidated;
    const user = userEvent.setup();
    await renderWithProviders(<ApiKeysTab />, { queryClient });
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));

    seedUsage();
    await user.click(screen.getByRole('button', { name: 'Test API Key' }));
    await screen.findByText('API key is valid');
    expect(usageStale()).toBe(false);

    fireEvent.change(field(), { target: { value: 'AIzaNEWKEY0000' } });
    fireEvent.submit(field().closest('form')!);
    await screen.findByText('API key saved successfully');
    expect(usageStale()).toBe(true);

    seedUsage();
    await user.click(screen.getByRole('button', { name: 'Remove key' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(usageStale()).toBe(true));
    expect(JSON.parse(String(fetchMock.mock.calls.filter((c) => c[0] === '/api/user/api-key').at(-1)![1].body))).toEqual({ api_key: '' });
  });

  it("a failed removal says 'Failed to delete API key' when the server gives no text", async () => {
    const user = userEvent.setup();
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));
    await user.click(screen.getByRole('button', { name: 'Remove key' }));
    fetchMock.mockImplementationOnce(async () => new Response('', { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Failed to delete API key')).toBeInTheDocument();
  });

  it("shows the server's message when saving fails, else 'Failed to save API key'", async () => {
    await renderWithProviders(<ApiKeysTab />);
    await waitFor(() => expect(field().value).toBe('AIzaSy...1234'));
    fetchMock.mockImplementationOnce(async () => new Response('', { status: 500 }));
    fireEvent.change(field(), { target: { value: 'AIzaX' } });
    fireEvent.submit(field().closest('form')!);
    expect(await screen.findByText('Failed to save API key')).toBeInTheDocument();
  });
});
