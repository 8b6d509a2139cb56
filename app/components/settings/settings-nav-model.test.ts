import { describe, expect, it } from "vitest";
import { isCurrentSettingsItem, settingsLanding, settingsNav } from "./settings-nav-model";

const flat = (signedIn: boolean) =>
  settingsNav(signedIn).flatMap((section) => section.items.map((item) => `${item.label} -> ${item.to}`));

describe("settingsNav (spec 1 §2 'Settings')", () => {
  it("lists the member's entries in the spec's order", () => {
    expect(settingsNav(true).map((section) => section.heading)).toEqual([
      "Account Info",
      "Help & Feedback",
      "For Professionals",
      "General Info",
      null,
    ]);
    expect(flat(true)).toEqual([
      "Account Settings -> /settings/account",
      "Customer Support -> /settings/help",
      "Give Us Feedback -> /settings/feedback",
      "Manage Ads -> /ads",
      "Payments -> /settings/payments",
      "About -> /settings/about",
      "How It Works -> /settings/howitworks",
      "Return Policy -> /settings/returns",
      "Trust and Safety -> /settings/trust_and_safety",
      "Terms of Service -> /settings/terms",
      "Privacy Policy -> /settings/privacy",
      "Log Out -> /logout",
    ]);
  });

  it("offers visitors Log In / Sign Up instead of the account and log-out entries", () => {
    const entries = flat(false);
    expect(entries[0]).toBe("Log In / Sign Up -> /user_registration");
    expect(entries).not.toContain("Account Settings -> /settings/account");
    expect(entries).not.toContain("Log Out -> /logout");
    expect(settingsNav(false).map((section) => section.heading)).not.toContain("Account Info");
  });

  it("lands wide screens on the account page for members, else on About", () => {
    expect(settingsLanding(true)).toBe("/settings/account");
    expect(settingsLanding(false)).toBe("/settings/about");
  });
});

describe("isCurrentSettingsItem", () => {
  it("marks the entry of the page and of its sub-pages", () => {
    expect(isCurrentSettingsItem("/settings/about", "/settings/about")).toBe(true);
    expect(isCurrentSettingsItem("/settings/account", "/settings/account/school_email")).toBe(true);
    expect(isCurrentSettingsItem("/settings/about", "/settings/account")).toBe(false);
    expect(isCurrentSettingsItem("/settings/privacy", "/settings/cookies")).toBe(true);
  });
});
