import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { RouteErrorBoundary } from "~/app/components/shell/route-error-boundary";
import routes from "~/app/routes";

// Decision 0140: every route module exports the shared ErrorBoundary, so an
// error in one page answers in its panel and never blanks the shell.

function files(entries: readonly RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...files(entry.children ?? [])]);
}

/** Routes that answer a file or JSON, not a page. */
const RESOURCE_ROUTES = [
  "routes/app/manifest.ts",
  "routes/search/search-data.tsx",
  // Decision 0570: the data archive's one-time download.
  "routes/settings/account/data-download.tsx",
  // Decisions 0601–0604: the trade's forms, an action only (its answers are toasts or a redirect).
  "routes/trade/trade.tsx",
];

describe("route modules", () => {
  const modules = [...new Set(files(routes))];

  it("are all listed", () => {
    expect(modules.length).toBeGreaterThan(40);
  });

  it.each(modules)("%s exports the shared ErrorBoundary", async (file) => {
    const module: { ErrorBoundary?: unknown } = await import(/* @vite-ignore */ `../${file}`);
    // A resource route answers its own Response; an ErrorBoundary would turn it into a page that
    // renders the document instead (decision 0253's manifest).
    if (RESOURCE_ROUTES.includes(file)) {
      expect(module.ErrorBoundary).toBeUndefined();
      return;
    }
    expect(module.ErrorBoundary).toBe(RouteErrorBoundary);
  });
});
