import { useCallback } from 'react';
import { useCreateCheckoutSession } from '../api/gen/billing/billing';
import { OPERATION_ERROR_MESSAGES } from './api-error-messages';
import { ApiError } from './api-fetch';
import { goToPage } from './page-navigation';

// Starting Stripe Checkout, shared by the landing page's pricing (features/landing) and
// the settings subscription card (features/billing), which may not import each other.

/** What `POST /api/billing/create-checkout-session` takes. */
export type CheckoutInterval = 'monthly' | 'yearly';

/**
 * The title of a Checkout that cannot start (spec section 8): the operation's default
 * text, which {@link errorDetail} then does not repeat under the title.
 */
export const CHECKOUT_FAILED = OPERATION_ERROR_MESSAGES.create_checkout_session;

/**
 * Returns a function that creates a Checkout session for Pro billed monthly or yearly
 * and sends the browser to Stripe's page (a full navigation: Stripe comes back to
 * /billing/success or /billing/cancel). It rejects with the server's message, else the
 * operation's default, {@link CHECKOUT_FAILED}.
 */
export function useStartCheckout(): (interval: CheckoutInterval) => Promise<void> {
  const { mutateAsync } = useCreateCheckoutSession();
  return useCallback(
    async (interval: CheckoutInterval) => {
      const answer = await mutateAsync({ data: { interval } });
      goToPage(answer.url);
    },
    [mutateAsync],
  );
}

/**
 * An error's own text worth showing under a fixed title: the server's message, or
 * nothing when it would only repeat the title or is a browser's network error text.
 */
export function errorDetail(error: unknown, title: string): string | undefined {
  if (error instanceof ApiError) return error.message !== title ? error.message : undefined;
  return undefined;
}

// A signed-out visitor who chose a plan signs in first; the choice waits in this tab's
// sessionStorage (never in the address, so a link cannot start a checkout) and is
// taken once, within CHECKOUT_INTENT_TTL_MS, by the pricing section after sign-in.

const INTENT_KEY = 'leadgen:checkoutIntent';

/** How long a plan chosen before signing in stays waiting. */
export const CHECKOUT_INTENT_TTL_MS = 30 * 60 * 1000;

function isInterval(value: unknown): value is CheckoutInterval {
  return value === 'monthly' || value === 'yearly';
}

/** Remembers the plan a signed-out visitor chose. */
export function rememberCheckoutIntent(interval: CheckoutInterval): void {
  try {
    window.sessionStorage.setItem(INTENT_KEY, JSON.stringify({ at: Date.now(), interval }));
  } catch {
    // Storage unavailable: after sign-in the visitor picks the plan again.
  }
}

/** The waiting plan, removed as it is read; null when none or stale. */
export function takeCheckoutIntent(): CheckoutInterval | null {
  try {
    const raw = window.sessionStorage.getItem(INTENT_KEY);
    window.sessionStorage.removeItem(INTENT_KEY);
    if (!raw) return null;
    const { at, interval } = JSON.parse(raw) as { at?: unknown; interval?: unknown };
    const age = typeof at === 'number' ? Date.now() - at : Number.NaN;
    return isInterval(interval) && age >= 0 && age <= CHECKOUT_INTENT_TTL_MS ? interval : null;
  } catch {
    return null;
  }
}
