import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from "react";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { useOnceTrue } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";
import type { ReportTargetKind } from "~/server/db/schema/reports";

/** What a Report is about, and the page action that serves it (decision 0540). */
export interface ReportTarget {
  kind: ReportTargetKind;
  id: string;
  /** Where the dialog posts: /post/{id} for a post or comment, /messages/{chatId}, /{username}. */
  action: string;
}

// Decision 0370: the dialog is nobody's first load; it is fetched when a Report is first chosen.
const ReportDialog = lazy(() =>
  import("./report-dialog").then((module) => ({ default: module.ReportDialog })),
);

/**
 * A menu's 'Report' (decision 0540): `open(target)` opens the one report dialog, or, for a visitor,
 * the sign-in modal (spec 1 §6). Render `dialog` beside the menu.
 */
export function useReport(): { open(target: ReportTarget): void; dialog: ReactNode } {
  const signedIn = useRootData().viewer !== null;
  const signIn = useSignInModal();
  const [target, setTarget] = useState<ReportTarget | null>(null);
  const [shown, setShown] = useState(false);
  const used = useOnceTrue(shown);
  const open = useCallback(
    (next: ReportTarget) => {
      if (!signedIn) {
        signIn.open("report");
        return;
      }
      setTarget(next);
      setShown(true);
    },
    [signedIn, signIn],
  );
  const dialog = useMemo(
    () =>
      used && target ? (
        <Suspense fallback={null}>
          <ReportDialog target={target} open={shown} onOpenChange={setShown} />
        </Suspense>
      ) : null,
    [used, target, shown],
  );
  return { open, dialog };
}
