// The operator's facts on the public pages (issue #26 item 10): the spec's placeholders
// until `GET /api/site` answers otherwise.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LandingFooter } from "./landing-footer";
import { TermsPage } from "./terms-page";
import { PrivacyPage } from "./privacy-page";
import { jsonResponse, renderWithProviders } from "../../test/render";
import { SPEC_SITE } from "../../lib/site-config";

const OPERATOR = {
  supportEmail: "help@agency.example",
  helpCenterUrl: "https://help.agency.example/",
  liveChatUrl: null,
  legalEntity: "Agency Leads Ltd",
  businessAddress: "1 Park Row, Leeds",
  jurisdiction: "England and Wales",
  arbitrationRules: "the LCIA Rules",
  marketingFigures: [],
};

function serve(site: object | null) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) =>
      url === "/api/site" && site ? jsonResponse(site) : jsonResponse({}, 404),
    ),
  );
}
afterEach(() => vi.unstubAllGlobals());

describe("site facts", () => {
  it("unset (or unreadable), the terms keep the spec's placeholders", async () => {
    serve(null);
    await renderWithProviders(<TermsPage />);
    expect(
      screen.getByText(/governed by the laws of \[Jurisdiction\]/),
    ).toHaveTextContent("[Arbitration Rules]");
    expect(
      screen.getByText(/Leadgen, \[Business Address\]/),
    ).toBeInTheDocument();
    expect(SPEC_SITE.marketingFigures.map((f) => f.value)).toEqual([
      "2.3M+",
      "500+",
      "99.9%",
    ]);
  });

  it("set, the terms, privacy policy and footer show the operator's", async () => {
    serve(OPERATOR);
    await renderWithProviders(<TermsPage />);
    expect(
      await screen.findByText(/governed by the laws of England and Wales/),
    ).toHaveTextContent("the LCIA Rules");
    expect(
      screen.getByText(/Agency Leads Ltd, 1 Park Row, Leeds/),
    ).toBeInTheDocument();
    expect(
      screen.getByRole("link", { name: "help@agency.example" }),
    ).toHaveAttribute("href", "mailto:help@agency.example");
  });

  it("the privacy policy and footer name the operator and link their Help Center", async () => {
    serve(OPERATOR);
    await renderWithProviders(
      <>
        <PrivacyPage />
        <LandingFooter />
      </>,
    );
    expect(
      await screen.findByText(/Our business address is 1 Park Row, Leeds\./),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Help Center" })).toHaveAttribute(
      "href",
      "https://help.agency.example/",
    );
    expect(
      screen.getByText(/Agency Leads Ltd\. All rights reserved\./),
    ).toBeInTheDocument();
  });
});
