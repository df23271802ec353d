import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthContext } from "../../lib/session/auth-context";
import { fakeAuth } from "../../test/fake-auth";
import { jsonResponse, renderWithProviders } from "../../test/render";
import { OnboardingPage } from "./onboarding-page";

const KEY = "AIzaSyD-0123456789abcdefghijklmnopqrstu";
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn(async (url: string) => {
    if (url === "/api/leads/check-api-key")
      return jsonResponse({
        valid: true,
        message: "API key is valid and working",
      });
    if (url === "/api/user/api-key")
      return jsonResponse({ message: "API key saved" });
    if (url === "/api/user/complete-onboarding")
      return jsonResponse({ success: true, message: "done" });
    return jsonResponse({}, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
});
/** The calls the page made about the key and onboarding (the public site facts aside). */
const keyCalls = () =>
  fetchMock.mock.calls.filter((call) => call[0] !== "/api/site");

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function setup() {
  const auth = fakeAuth({
    user: { ...fakeAuth().user!, needsOnboarding: true, isFirstLogin: true },
  });
  const view = await renderWithProviders(<OnboardingPage />, {
    wrap: (node) => (
      <AuthContext.Provider value={auth}>{node}</AuthContext.Provider>
    ),
  });
  return { ...view, auth, user: userEvent.setup() };
}

describe("OnboardingPage", () => {
  it("asks for Places API (New), not the legacy Places API alone", async () => {
    await setup();
    const step = screen.getByText("Enable Places API (New)").closest("li")!;
    expect(step).toHaveTextContent('"Places API (New)" → Enable');
    expect(step).toHaveTextContent(
      'The legacy "Places API" alone is not enough',
    );
  });

  it("shows the empty-key and format messages without calling the API", async () => {
    const { user } = await setup();
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Please enter your Google Places API key",
    );
    await user.type(
      screen.getByLabelText("Google Places API key"),
      "AIza-too-short",
    );
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Invalid API key format.",
    );
    expect(keyCalls()).toEqual([]);
  });

  it("toggles the key between hidden and shown", async () => {
    const { user } = await setup();
    const field = screen.getByLabelText("Google Places API key");
    expect(field).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show API key" }));
    expect(field).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide API key" }));
    expect(field).toHaveAttribute("type", "password");
  });

  it("checks the key with Google, then saves the trimmed key, completes onboarding and goes to /dashboard", async () => {
    // The check answers when the test says so, so 'Validating' is on screen meanwhile.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const plain = fetchMock.getMockImplementation() as (
      url: string,
      init: RequestInit,
    ) => Promise<Response>;
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      if (url === "/api/leads/check-api-key") await answered;
      return plain(url, init);
    });
    const { user, router, auth } = await setup();
    await user.type(
      screen.getByLabelText("Google Places API key"),
      `  ${KEY} `,
    );
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    expect(
      screen.getByRole("button", { name: /Validating your API key/ }),
    ).toBeDisabled();
    answer();
    await waitFor(
      () => expect(router.state.location.pathname).toBe("/dashboard"),
      { timeout: 5000 },
    );
    expect(keyCalls().map((call) => call[0])).toEqual([
      "/api/leads/check-api-key",
      "/api/user/api-key",
      "/api/user/complete-onboarding",
    ]);
    expect(JSON.parse(keyCalls()[0][1].body)).toEqual({
      apiKey: KEY,
    });
    expect(JSON.parse(keyCalls()[1][1].body)).toEqual({
      api_key: KEY,
    });
    expect(auth.reloadUser).toHaveBeenCalled();
  });

  it("a key Google refuses is not saved, and Google's reason is shown (issue #26 item 5)", async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === "/api/leads/check-api-key"
        ? jsonResponse(
            {
              error: "invalid_api_key",
              message:
                "Your Google Places API key is not valid. Check it in the Google Cloud console.",
            },
            400,
          )
        : jsonResponse({}),
    );
    const { user, router } = await setup();
    await user.type(screen.getByLabelText("Google Places API key"), KEY);
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Your Google Places API key is not valid",
    );
    expect(keyCalls().map((call) => call[0])).toEqual([
      "/api/leads/check-api-key",
    ]);
    expect(router.state.location.pathname).not.toBe("/dashboard");
  });

  it("shows the server message when saving fails and lets the user retry", async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse(
        { error: "invalid_key", message: "Google rejected this key" },
        400,
      ),
    );
    const { user } = await setup();
    await user.type(screen.getByLabelText("Google Places API key"), KEY);
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Google rejected this key",
    );
    expect(
      screen.getByRole("button", { name: "Save and Continue" }),
    ).toBeEnabled();
  });

  it("without the server's text: 'Failed to validate API key' for the save, 'Failed to complete onboarding' after it", async () => {
    fetchMock.mockImplementation(async () => new Response("", { status: 500 }));
    const { user } = await setup();
    await user.type(screen.getByLabelText("Google Places API key"), KEY);
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      /^Failed to validate API key$/,
    );

    fetchMock.mockImplementation(async (url: string) =>
      url === "/api/user/complete-onboarding"
        ? new Response("", { status: 502 })
        : jsonResponse({ valid: true, message: "API key saved" }),
    );
    await user.click(screen.getByRole("button", { name: "Save and Continue" }));
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        /^Failed to complete onboarding$/,
      ),
    );
  });

  it("links the operator's Help Center when set, and keeps the alert for Live Chat", async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === "/api/site"
        ? jsonResponse({ supportEmail: "a@b.example", helpCenterUrl: "https://help.agency.example/", liveChatUrl: null, legalEntity: "A", businessAddress: "B", jurisdiction: "C", arbitrationRules: "D", marketingFigures: [] })
        : jsonResponse({}, 404),
    );
    await setup();
    const help = await screen.findByRole("link", { name: "Help Center" });
    expect(help).toHaveAttribute("href", "https://help.agency.example/");
    expect(help).toHaveAttribute("target", "_blank");
    expect(screen.getByRole("button", { name: "Live Chat" })).toBeInTheDocument();
  });

  it("shows 'coming soon' alerts for Help Center and Live Chat", async () => {
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    const { user } = await setup();
    await user.click(screen.getByRole("button", { name: "Help Center" }));
    await user.click(screen.getByRole("button", { name: "Live Chat" }));
    expect(alert.mock.calls.map((c) => c[0])).toEqual([
      "Help Center is coming soon!",
      "Live Chat is coming soon!",
    ]);
  });
});
