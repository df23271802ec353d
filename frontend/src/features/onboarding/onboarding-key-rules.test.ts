import { describe, expect, it } from "vitest";
import { validateOnboardingKey } from "./onboarding-key-rules";

const FORMAT =
  'Invalid API key format. Google Places API keys typically start with "AIza" and are around 39 characters long.';

describe("validateOnboardingKey", () => {
  it("asks for a key when empty or blank", () => {
    expect(validateOnboardingKey("")).toBe(
      "Please enter your Google Places API key",
    );
    expect(validateOnboardingKey("   ")).toBe(
      "Please enter your Google Places API key",
    );
  });

  it("requires the AIza prefix", () => {
    expect(validateOnboardingKey("BIza" + "x".repeat(35))).toBe(FORMAT);
    expect(validateOnboardingKey("aiza" + "x".repeat(35))).toBe(FORMAT);
  });

  it("requires at least 35 characters", () => {
    expect(validateOnboardingKey("AIza" + "x".repeat(30))).toBe(FORMAT); // 34
    expect(validateOnboardingKey("AIza" + "x".repeat(31))).toBeNull(); // 35
  });

  it("accepts a typical 39-character key with surrounding spaces", () => {
    expect(validateOnboardingKey("  AIza" + "x".repeat(35) + " ")).toBeNull();
  });
});
