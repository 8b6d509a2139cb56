/** One toast system (spec 1 §2 'Alerts'): timed, typed, with a progress bar. */
export type ToastType = "success" | "okay" | "black" | "danger";

export interface ToastInput {
  message: string;
  type: ToastType;
  /** Defaults to 2600 ms (spec 1 §9); the lockout message stays 7800 ms. */
  durationMs?: number;
  /** Optional link shown beside the message ('View' after posting, spec 1 §2). */
  link?: { to: string; label: string };
}

export interface Toast extends ToastInput {
  id: string;
  durationMs: number;
}

export const DEFAULT_TOAST_MS = 2600;
export const LOCKOUT_TOAST_MS = 7800;
