// The dashboard route as the app runs it (router, loader, onboarding redirect), composed
// of its features.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/app';
import { fakeAuth, testUser } from '../test/fake-auth';
import { jsonResponse } from '../test/render';

beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    // The key status answers a little late; every other read never answers.
    if (String(input) === '/api/user/api-key/status') {
      return new Promise((resolve) =>
        setTimeout(() => resolve(jsonResponse({ api_key_status: { has_key: false, key_preview: null, is_valid: null } })), 30),
      );
    }
    return new Promise<Response>(() => {});
  });
});

describe('the dashboard route', () => {
  it("waits for the key status, so 'API Key Required' is on the first screen", async () => {
    await renderApp('/dashboard', fakeAuth());
    // No waiting here: the loader held the page until the status answered.
    expect(screen.getByRole('heading', { name: 'Hello, Ada' })).toBeInTheDocument();
    expect(screen.getByText('API Key Required')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Search$/ })).toBeDisabled();
  });

  it('sends a first login with setup unfinished to onboarding', async () => {
    const { router } = await renderApp('/dashboard', fakeAuth({ user: { ...testUser, needsOnboarding: true, isFirstLogin: true } }));
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it("keeps a first login that arrives in a team's workspace on its dashboard (an invitation accepted)", async () => {
    const team = '0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21';
    const { router } = await renderApp(`/dashboard?ws=${team}`, fakeAuth({ user: { ...testUser, needsOnboarding: true, isFirstLogin: true } }));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.location.search).toMatchObject({ ws: team });
  });

  it("sets up the person's own workspace on onboarding: a team's ?ws= is dropped on the way in", async () => {
    const team = '0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21';
    const { router } = await renderApp(`/onboarding?ws=${team}`, fakeAuth({ user: { ...testUser, needsOnboarding: true, isFirstLogin: true } }));
    expect(router.state.location.pathname).toBe('/onboarding');
    expect(router.state.location.search).not.toHaveProperty('ws');
  });

  it("shows 'Welcome back' to a returning user with setup unfinished, until 'Skip for now'", async () => {
    await renderApp('/dashboard', fakeAuth({ user: { ...testUser, needsOnboarding: true } }));
    expect(screen.getByRole('heading', { name: 'Welcome back, Ada!' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(await screen.findByRole('heading', { name: 'Hello, Ada' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem('leadgen:onboardingSkipped')).toBe('1');
  });
});
