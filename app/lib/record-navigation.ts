import { useEffect } from "react";
import { useLocation } from "react-router";

/**
 * Records every page visited in the navigation memory (spec 1 §2, §9; app/lib/navigation-history.ts).
 * Rendered once, by the root. The memory's rules load with the first recording, not with the page
 * (decision 0370): no page needs them before it is interactive, and a page with a back
 * button has them already, so this page is recorded before its button reads the memory.
 */
export function useRecordNavigation(): void {
  const location = useLocation();
  const entry = `${location.pathname}${location.search}`;
  useEffect(() => {
    const now = Date.now();
    void import("./navigation-history").then(({ loadHistory, recordVisit, saveHistory }) =>
      saveHistory(recordVisit(loadHistory(now), entry, now)),
    );
  }, [entry]);
}
