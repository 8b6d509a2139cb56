/** spec 2 §7 trackPostAnalytics actionType (shared with the browser's beacon, app/lib/analytics.ts). */
export const ANALYTICS_ACTIONS = [
  "view",
  "direct_message",
  "copied_link",
  "external_link_click",
  "profile_visit",
] as const;
export type AnalyticsAction = (typeof ANALYTICS_ACTIONS)[number];
