import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../test/render";
import { PrivacyPage, RESULTS_REPLAY_MINUTES } from "./privacy-page";

describe("PrivacyPage", () => {
  it("says how long results stay in memory for reconnecting, and where, and that they never reach a disk", async () => {
    await renderWithProviders(<PrivacyPage />);
    const section = screen
      .getByRole("heading", { name: "3. What we never store" })
      .closest("section")!;
    expect(section).toHaveTextContent("Lead data is never stored.");
    expect(section).toHaveTextContent(
      `held in the memory of our servers (our Redis event server, or the Leadgen process itself`,
    );
    expect(section).toHaveTextContent(
      `for ${RESULTS_REPLAY_MINUTES} minutes after the search's last result, then deleted`,
    );
    expect(section).toHaveTextContent(
      "never written to a database, a disk or a log",
    );
  });

  it("says exactly what the place memory keeps, why, and how to stop it", async () => {
    await renderWithProviders(<PrivacyPage />);
    const section = screen
      .getByRole("heading", { name: "3. What we never store" })
      .closest("section")!;
    expect(section).toHaveTextContent(
      "the Google place IDs its searches sent and its exports held, with when each was first seen, last seen and last exported",
    );
    expect(section).toHaveTextContent(
      "no name, address, phone number, website or rating",
    );
    expect(section).toHaveTextContent(
      "Google's terms allow place IDs to be kept indefinitely",
    );
    expect(section).toHaveTextContent(
      "An estimate of a full search also keeps, for 15 minutes, the place IDs its free probes listed",
    );
    expect(section).toHaveTextContent("turn the place memory off");
  });
});
