/**
 * The test checkout's cards (docs/research/round-2.md §4): one that pays, one that is declined. A module of
 * their own, without node:crypto, so the test checkout page shows them without bringing the
 * payments module into the browser's bundle (decision 0472: Vite warned of it on every build).
 */
export const TEST_CARDS = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
} as const;
