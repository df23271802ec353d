import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEventInfo } from '../../api/gen/model/auditEventInfo';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import { AuthContext } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders, testQueryClient } from '../../test/render';
import { ActivityTab, eventSentence } from './activity-tab';

const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const olga = { userId: 'u-olga', email: 'olga@example.com', name: 'Olga Owner' };
const event = (id: string, action: AuditEventInfo['action'], target: string, details: unknown = {}): AuditEventInfo => ({
  id,
  action,
  target,
  details,
  actor: olga,
  at: '2026-11-20T10:00:00Z',
});

afterEach(() => enterWorkspace(undefined, new QueryClient()));

async function renderAs(role: WorkspaceRole, pages: Record<string, { events: AuditEventInfo[]; nextCursor: string | null } | Response>) {
  const urls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    urls.push(url);
    if (url === '/api/workspaces') return jsonResponse({ workspaces: [{ id: ACME, name: 'Acme', personal: false, role }] });
    const page = pages[url];
    if (page instanceof Response) return page;
    if (page) return jsonResponse(page);
    return new Response(null, { status: 500 });
  });
  const queryClient = testQueryClient();
  enterWorkspace(ACME, queryClient);
  await renderWithProviders(<ActivityTab />, {
    queryClient,
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  return urls;
}

const FIRST = `/api/workspaces/${ACME}/audit-events?limit=50`;

describe('Settings > Workspace > Activity', () => {
  it('shows the log newest first in words, and "Load more" follows the cursor to the end', async () => {
    await renderAs('admin', {
      [FIRST]: {
        events: [
          event('e2', 'member_role_changed', 'mo@example.com', { from: 'member', to: 'admin' }),
          event('e1', 'invitation_created', 'bo@example.com', { role: 'member', mailed: false }),
        ],
        nextCursor: 'c-1',
      },
      [`/api/workspaces/${ACME}/audit-events?limit=50&before=c-1`]: {
        events: [event('e0', 'key_saved', 'places_api_key')],
        nextCursor: null,
      },
    });
    const log = await screen.findByRole('list', { name: 'Activity' });
    expect(within(log).getAllByRole('listitem').map((li) => li.querySelector('p')?.textContent)).toEqual([
      'Olga Owner changed the role of mo@example.com from member to admin',
      'Olga Owner invited bo@example.com as member',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(log).findByText('Olga Owner saved the Google Places key')).toBeInTheDocument();
    expect(within(log).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("shows the API's refusal as it words it", async () => {
    await renderAs('admin', {
      [FIRST]: jsonResponse({ error: 'role_required', message: 'This needs the admin role in this workspace.' }, 403),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This needs the admin role in this workspace.');
  });

  it('a member is told the log is for admins, and it is not asked for', async () => {
    const urls = await renderAs('member', {});
    expect(await screen.findByText(/Only the workspace's admins and owners see its activity/)).toBeInTheDocument();
    expect(urls.some((url) => url.includes('audit-events'))).toBe(false);
  });
});

describe('eventSentence', () => {
  it('says a search, an export, a plan change by the billing provider and a rename in words', () => {
    expect(
      eventSentence(event('s', 'search_started', 'search-1', { type: 'dentist', location: 'Austin, TX', client: 'Smile Co' })),
    ).toBe('Olga Owner started a search for dentist in Austin, TX (client Smile Co)');
    expect(eventSentence(event('x', 'export_made', 'sheet-1', { to: 'google_sheets', rows: 42 }))).toBe(
      'Olga Owner exported 42 leads to Google Sheets',
    );
    expect(eventSentence(event('x', 'export_made', 'email', { to: 'email', rows: 7, automatic: true }))).toBe(
      'Olga Owner exported 7 leads by email (automatic delivery)',
    );
    expect(eventSentence({ ...event('p', 'plan_changed', 'pro', { plan: 'pro' }), actor: null })).toBe(
      'The billing provider changed the plan to pro',
    );
    expect(eventSentence(event('r', 'workspace_renamed', 'Acme Agency', { from: 'Acme' }))).toBe(
      'Olga Owner renamed the workspace from Acme to Acme Agency',
    );
    expect(eventSentence(event('m', 'place_memory_changed', 'off'))).toBe('Olga Owner turned the place memory off');
    expect(eventSentence(event('f', 'place_memory_forgotten', 'place memory', { places: 1532 }))).toBe(
      'Olga Owner made the place memory forget 1532 places',
    );
    expect(eventSentence({ ...event('l', 'member_left', 'mo@example.com'), actor: { userId: 'gone', email: null } })).toBe(
      'A former member left the workspace',
    );
  });
});
