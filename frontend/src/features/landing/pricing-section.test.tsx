import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Plan } from "../../api/gen/model/plan";
import { rememberCheckoutIntent, takeCheckoutIntent } from "../../lib/checkout";
import { goToPage } from "../../lib/page-navigation";
import { takeReturnTo } from "../../lib/return-to";
import { AuthContext } from "../../lib/session/auth-context";
import type { AuthContextValue } from "../../lib/session/session-types";
import { fakeAuth } from "../../test/fake-auth";
import { jsonResponse, renderWithProviders } from "../../test/render";
import { PricingSection } from "./pricing-section";

vi.mock("../../lib/page-navigation", () => ({ goToPage: vi.fn() }));

const features = [
  "Unlimited searches (fair usage)",
  "Real-time sync",
  "Premium support",
  "Cancel anytime",
];
function plans(checkoutAvailable: boolean): Plan[] {
  const base = {
    name: "Pro",
    currency: "usd",
    monthlySearches: 10000,
    features,
    checkoutAvailable,
  };
  return [
    {
      ...base,
      id: "monthly",
      price: 29,
      interval: "month",
      monthlyEquivalent: 29,
      savings: 0,
    },
    {
      ...base,
      id: "yearly",
      price: 99,
      interval: "year",
      monthlyEquivalent: 8.25,
      savings: 249,
    },
  ];
}

let plansAnswer: () => Response | Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  plansAnswer = () =>
    jsonResponse({ success: true, data: { plans: plans(true) } });
  fetchMock = vi.fn(async (url: string) => {
    if (url === "/api/billing/plans") return plansAnswer();
    if (url === "/api/billing/create-checkout-session") {
      return jsonResponse({
        success: true,
        url: "https://checkout.example/c/pay/cs_9",
        sessionId: "cs_9",
      });
    }
    return jsonResponse({}, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  vi.mocked(goToPage).mockClear();
  window.localStorage.setItem("authToken", "a.b.c");
});
afterEach(() => vi.unstubAllGlobals());

const signedOut = () =>
  fakeAuth({ isAuthenticated: false, user: null, token: null });
const render = (auth: AuthContextValue) =>
  renderWithProviders(<PricingSection />, {
    wrap: (node: ReactNode) => (
      <AuthContext.Provider value={auth}>{node}</AuthContext.Provider>
    ),
  });
const subscribeButton = () => screen.getByRole("button", { name: "Subscribe" });
const checkoutCalls = () =>
  fetchMock.mock.calls.filter(
    (c) => c[0] === "/api/billing/create-checkout-session",
  );

describe("PricingSection toggle", () => {
  it("toggles between $29/month and $99/year with the yearly saving", async () => {
    const user = userEvent.setup();
    await render(signedOut());
    await waitFor(() => expect(subscribeButton()).toBeEnabled());
    expect(screen.getByTestId("plan-price")).toHaveTextContent("$29/month");
    expect(screen.getByRole("radio", { name: "Monthly" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    expect(screen.queryByText("Save $249!")).not.toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Yearly" }));
    expect(screen.getByTestId("plan-price")).toHaveTextContent("$99/year");
    expect(screen.getByText("Save $249!")).toBeInTheDocument();
    expect(screen.getByText(/\$8\.25\/month/)).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Yearly" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    expect(screen.getByRole("radio", { name: "Monthly" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    // The server's feature list replaces the built-in one.
    expect(screen.getByText("Real-time sync")).toBeInTheDocument();
  });
});

describe("PricingSection Subscribe", () => {
  it("signed in: starts Checkout for the chosen period and sends the browser there", async () => {
    const user = userEvent.setup();
    await render(fakeAuth());
    await waitFor(() => expect(subscribeButton()).toBeEnabled());
    await user.click(screen.getByRole("radio", { name: "Yearly" }));
    await user.click(subscribeButton());
    await waitFor(() =>
      expect(goToPage).toHaveBeenCalledWith(
        "https://checkout.example/c/pay/cs_9",
      ),
    );
    expect(JSON.parse(String(checkoutCalls()[0][1].body))).toEqual({
      interval: "yearly",
    });
    expect(
      screen.getByRole("button", { name: "Taking you to checkout..." }),
    ).toBeDisabled();
  });

  it("signed out: remembers the plan and this place, then signs in (no checkout yet)", async () => {
    const auth = signedOut();
    const user = userEvent.setup();
    await render(auth);
    await waitFor(() => expect(subscribeButton()).toBeEnabled());
    expect(screen.getByText(/sign in with Google first/)).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Yearly" }));
    await user.click(subscribeButton());
    expect(auth.login).toHaveBeenCalledTimes(1);
    expect(checkoutCalls()).toHaveLength(0);
    expect(takeReturnTo()).toBe("/#pricing");
    expect(takeCheckoutIntent()).toBe("yearly");
  });

  it("back from signing in with a plan chosen: straight into Checkout for that plan, once", async () => {
    rememberCheckoutIntent("yearly");
    await render(fakeAuth());
    await waitFor(() =>
      expect(goToPage).toHaveBeenCalledWith(
        "https://checkout.example/c/pay/cs_9",
      ),
    );
    expect(checkoutCalls()).toHaveLength(1);
    expect(JSON.parse(String(checkoutCalls()[0][1].body))).toEqual({
      interval: "yearly",
    });
    expect(screen.getByRole("radio", { name: "Yearly" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    expect(takeCheckoutIntent()).toBeNull();
  });

  it("a waiting plan is not used while the session is still loading", async () => {
    rememberCheckoutIntent("monthly");
    await render(
      fakeAuth({
        isLoading: true,
        isAuthenticated: false,
        user: null,
        token: null,
      }),
    );
    await act(async () => {});
    expect(checkoutCalls()).toHaveLength(0);
    expect(takeCheckoutIntent()).toBe("monthly");
  });

  it("checkout refused: 'Failed to start subscription process' with the server's reason, and Subscribe again", async () => {
    fetchMock.mockImplementation(async (url: string) => {
      if (url === "/api/billing/plans") return plansAnswer();
      return jsonResponse(
        {
          error: "already_subscribed",
          message: "You already have an active subscription.",
        },
        400,
      );
    });
    const user = userEvent.setup();
    await render(fakeAuth());
    await waitFor(() => expect(subscribeButton()).toBeEnabled());
    await user.click(subscribeButton());
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to start subscription process");
    expect(alert).toHaveTextContent("You already have an active subscription.");
    expect(subscribeButton()).toBeEnabled();
    expect(goToPage).not.toHaveBeenCalled();
  });
});

describe("PricingSection without Stripe", () => {
  it.each([
    ["signed in", fakeAuth],
    ["signed out", signedOut],
  ])(
    "%s: shows both plans, Subscribe disabled with a note, no click goes anywhere",
    async (_, auth) => {
      plansAnswer = () =>
        jsonResponse({ success: true, data: { plans: plans(false) } });
      const session = auth();
      const user = userEvent.setup();
      await render(session);
      expect(
        await screen.findByText(
          "Online checkout is not available on this server yet.",
        ),
      ).toBeInTheDocument();
      expect(subscribeButton()).toBeDisabled();
      expect(subscribeButton()).toHaveAccessibleDescription(
        "Online checkout is not available on this server yet.",
      );
      expect(screen.getByTestId("plan-price")).toHaveTextContent("$29/month");
      await user.click(screen.getByRole("radio", { name: "Yearly" }));
      expect(screen.getByTestId("plan-price")).toHaveTextContent("$99/year");
      await user.click(subscribeButton());
      expect(checkoutCalls()).toHaveLength(0);
      expect(session.login).not.toHaveBeenCalled();
    },
  );
});

describe("PricingSection plans loading", () => {
  it("Subscribe waits for the plans", async () => {
    let release!: () => void;
    plansAnswer = () =>
      new Promise(
        (resolve) =>
          (release = () =>
            resolve(
              jsonResponse({ success: true, data: { plans: plans(true) } }),
            )),
      );
    await render(fakeAuth());
    expect(subscribeButton()).toBeDisabled();
    expect(screen.getByTestId("plan-price")).toHaveTextContent("$29/month");
    release();
    await waitFor(() => expect(subscribeButton()).toBeEnabled());
  });

  it("a failed plans read says 'Failed to fetch plans', keeps the built-in prices and lets the server decide", async () => {
    plansAnswer = () => new Response("", { status: 500 });
    const user = userEvent.setup();
    await render(fakeAuth());
    expect(
      await screen.findByText("Failed to fetch plans"),
    ).toBeInTheDocument();
    expect(screen.getByTestId("plan-price")).toHaveTextContent("$29/month");
    expect(subscribeButton()).toBeEnabled();
    await user.click(subscribeButton());
    await waitFor(() => expect(goToPage).toHaveBeenCalled());
  });
});
