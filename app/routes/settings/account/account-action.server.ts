import type { ToastInput } from "~/app/lib/toast";
import type { AuthActionData } from "~/app/routes/auth/action.server";

export type { AuthActionData as AccountActionData };

/** spec 1 §8 'Account editing': every saved change says so. */
export const ACCOUNT_UPDATED: ToastInput = { message: "Account Updated!", type: "success" };
/** spec 1 §8 'Account editing': after a code is mailed. */
export const EMAIL_SENT: ToastInput = { message: "Email sent", type: "okay" };
