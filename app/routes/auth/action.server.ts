import type { SubmissionResult } from "@conform-to/react";
import type { ToastInput } from "~/app/lib/toast";

/**
 * What the auth actions answer when they stay on the page; a refusal is answered by the
 * one adapter, app/lib/errors.server.ts (decision 0140).
 */
export interface AuthActionData {
  result?: SubmissionResult<string[]>;
  toast?: ToastInput | null;
}
