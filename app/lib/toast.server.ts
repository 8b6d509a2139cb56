import { redirect } from "react-router";
import { appCookie } from "./cookies.server";
import { DEFAULT_TOAST_MS, type Toast, type ToastInput } from "./toast";

// A toast queued by an action or a redirect travels in a short-lived cookie
// and is shown by the root loader on the next render (spec 1 §2: queued across a redirect).
// Signed: its message and link are shown as the site's own (decision 0111).
const toastCookie = appCookie("cbs_toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

function toToast(input: ToastInput): Toast {
  return { ...input, id: crypto.randomUUID(), durationMs: input.durationMs ?? DEFAULT_TOAST_MS };
}

/** Headers that queue a toast; pass them to `data()` or `redirect()`. */
export async function toastHeaders(input: ToastInput, headers = new Headers()): Promise<Headers> {
  headers.append("Set-Cookie", await toastCookie().serialize(toToast(input)));
  return headers;
}

export async function redirectWithToast(
  url: string,
  input: ToastInput,
  init: ResponseInit = {},
): Promise<Response> {
  const headers = await toastHeaders(input, new Headers(init.headers));
  return redirect(url, { ...init, headers });
}

/** The queued toast, if any, and the header that clears it. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const value: unknown = await toastCookie().parse(request.headers.get("Cookie"));
  const headers = new Headers();
  if (!value || typeof value !== "object") return { toast: null, headers };
  headers.append("Set-Cookie", await toastCookie().serialize("", { maxAge: 0 }));
  return { toast: value as Toast, headers };
}
