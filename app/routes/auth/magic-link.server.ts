import type { AppLoadContext } from "react-router";
import type { z } from "zod";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import type { MagicLinkRequestOptions, MagicLinkSent } from "~/server/accounts/magic-link";

// What the pages that send e-mail links share (/login, /register, /login/sent; decision 0060).

/** spec 1 §2 /login/sent?email=…, with first and last when the link signs up. */
export function linkSentPath(sent: MagicLinkSent): string {
  const params = new URLSearchParams({ email: sent.email });
  if (sent.first && sent.last) {
    params.set("first", sent.first);
    params.set("last", sent.last);
  }
  return `/login/sent?${params}`;
}

/** After sending: /login/sent with spec 1 §8's 'Email sent.' (okay). */
export function redirectToLinkSent(sent: MagicLinkSent): Promise<Response> {
  return redirectWithToast(linkSentPath(sent), { message: "Email sent.", type: "okay" });
}

/**
 * 'Claim this account': /login/sent?claim={username}, which names the profile, not the
 * address the link went to (decision 0126).
 */
export function claimLinkSentPath(username: string): string {
  return `/login/sent?${new URLSearchParams({ claim: username })}`;
}

export function redirectToClaimLinkSent(username: string): Promise<Response> {
  return redirectWithToast(claimLinkSentPath(username), { message: "Email sent.", type: "okay" });
}

/**
 * spec 1 §2 /login and /register: `method=password | noPassword` picks the form, and
 * `redirect=true` reports a failed e-mail link, which offers a new link unless the
 * password form is asked for.
 */
export function signInMethod(request: Request): { byLink: boolean; failedLink: boolean } {
  const params = new URL(request.url).searchParams;
  const failedLink = params.get("redirect") === "true";
  const method = params.get("method") ?? (failedLink ? "noPassword" : "password");
  return { byLink: method === "noPassword", failedLink };
}

/**
 * The e-mail link form of /login and /register (spec 1 §4 'Magic link'): the form parsed with
 * `schema`, the link mailed by `send` for this campus (its origin from configuration), then
 * /login/sent; a link that could not be sent answers spec 1 §8's message (AREA_FAILURES.signInLink).
 */
export function submitLinkForm<Schema extends z.ZodType>(
  { request, context }: { request: Request; context: AppLoadContext },
  formData: FormData,
  schema: Schema,
  send: (value: z.output<Schema>, where: MagicLinkRequestOptions) => Promise<MagicLinkSent>,
  inlineFields?: readonly string[],
) {
  const where = {
    campus: context.campus,
    campusOrigin: campusOriginOf(request, context),
    headers: request.headers,
  };
  return submitForm(
    context.app,
    formData,
    schema,
    async (value) => redirectToLinkSent(await send(value, where)),
    {
      failures: AREA_FAILURES.signInLink,
      inlineFields,
    },
  );
}
