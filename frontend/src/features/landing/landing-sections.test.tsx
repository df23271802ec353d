import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../test/render";
import { FaqAccordion } from "./faq-accordion";

describe("FaqAccordion", () => {
  const items = [
    { question: "Q1", answer: "A1" },
    { question: "Q2", answer: "A2" },
    { question: "Q3", answer: "A3" },
  ];

  it("opens the first item initially and keeps at most one open", async () => {
    const user = userEvent.setup();
    await renderWithProviders(<FaqAccordion items={items} />);
    const q = (name: string) => screen.getByRole("button", { name });
    expect(q("Q1")).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("A1")).toBeVisible();
    expect(screen.getByText("A2")).not.toBeVisible();

    await user.click(q("Q2"));
    expect(q("Q1")).toHaveAttribute("aria-expanded", "false");
    expect(q("Q2")).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("A1")).not.toBeVisible();

    await user.click(q("Q2"));
    expect(screen.queryAllByRole("button", { expanded: true })).toHaveLength(0);
  });
});
