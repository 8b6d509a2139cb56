/** The settings navigation list of spec 1 §2 'Settings', as data. */

export interface SettingsNavItem {
  label: string;
  to: string;
}

export interface SettingsNavSection {
  /** Null for the standalone entries (Log In / Sign Up, Log Out). */
  heading: string | null;
  items: SettingsNavItem[];
}

export function settingsNav(signedIn: boolean): SettingsNavSection[] {
  const sections: SettingsNavSection[] = [
    signedIn
      ? { heading: "Account Info", items: [{ label: "Account Settings", to: "/settings/account" }] }
      : { heading: null, items: [{ label: "Log In / Sign Up", to: "/user_registration" }] },
    {
      heading: "Help & Feedback",
      items: [
        { label: "Customer Support", to: "/settings/help" },
        { label: "Give Us Feedback", to: "/settings/feedback" },
      ],
    },
    {
      heading: "For Professionals",
      items: [
        { label: "Manage Ads", to: "/ads" },
        { label: "Payments", to: "/settings/payments" },
      ],
    },
    {
      heading: "General Info",
      items: [
        { label: "About", to: "/settings/about" },
        { label: "How It Works", to: "/settings/howitworks" },
        { label: "Return Policy", to: "/settings/returns" },
        { label: "Trust and Safety", to: "/settings/trust_and_safety" },
        { label: "Terms of Service", to: "/settings/terms" },
        { label: "Privacy Policy", to: "/settings/privacy" },
      ],
    },
  ];
  if (signedIn) sections.push({ heading: null, items: [{ label: "Log Out", to: "/logout" }] });
  return sections;
}

/** spec 1 §2: on wide screens /settings opens the account page for members, else About. */
export function settingsLanding(signedIn: boolean): string {
  return signedIn ? "/settings/account" : "/settings/about";
}

/** The media query for the side-panel layout ("wider than 1000 px"), the same edge as the `lg:` screen. */
export const SETTINGS_PANEL_QUERY = "(min-width: 1001px)";

/** Whether a nav entry is the current page: its path or, for the account entry, any account sub-page. */
export function isCurrentSettingsItem(itemTo: string, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, "");
  if (itemTo === "/settings/privacy" && path === "/settings/cookies") return true;
  return path === itemTo || path.startsWith(`${itemTo}/`);
}
