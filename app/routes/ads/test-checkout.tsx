import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { REPLACE_HISTORY } from "~/app/lib/ads.server";
import { AREA_FAILURES, type FailureData, failureReply } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { submittedIntent } from "~/app/lib/submission";
import { getViewer } from "~/app/lib/viewer.server";
import { AD_MESSAGES } from "~/server/ads/errors.shared";
import { getTestCheckout, payTestCheckout } from "~/server/ads/fulfilment";
import { formatUsd } from "~/server/ads/schemas.shared";
import { TEST_CARDS } from "~/server/payments/test-cards.shared";
import type { Route } from "./+types/test-checkout";

export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta() {
  return [{ title: "Test checkout" }, { name: "robots", content: "noindex" }];
}

function notFound(): never {
  throw data("Not Found", { status: 404 });
}

/**
 * The built-in test checkout (decision 0270; docs/research/round-2.md §4): only without STRIPE_SECRET_KEY
 * and never in production (404). Pay signs a `checkout.session.completed` event and sends it
 * through the same webhook handler Stripe's deliveries reach, then goes to the success page.
 */
export async function loader(args: Route.LoaderArgs) {
  const { params, context } = args;
  const viewer = await getViewer(args);
  if (context.app.payments.provider !== "test" || context.app.config.production) notFound();
  if (!viewer) throw redirect("/user_registration");
  const session = await getTestCheckout(context.app, viewer, params.sessionId);
  if (!session) notFound();
  if (session.status === "complete") throw redirect(session.successUrl, REPLACE_HISTORY);
  return { session };
}

const INTENTS = z.enum(["pay-checkout", "cancel-checkout"]).default("pay-checkout");

export async function action(args: Route.ActionArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const form = await readForm(request);
  const intent = readIntent(form, INTENTS);
  try {
    const session = await getTestCheckout(context.app, viewer, params.sessionId);
    if (!session) notFound();
    // Decision 0465: a checkout left, paid or not, is not a page to go back to.
    if (intent === "cancel-checkout") return redirect(session.cancelUrl, REPLACE_HISTORY);
    const { successUrl } = await payTestCheckout(context.app, viewer, {
      sessionId: params.sessionId,
      card: String(formFields(form).card ?? ""),
    });
    return redirect(successUrl, REPLACE_HISTORY);
  } catch (error) {
    return failureReply(context.app, error, {
      ...AREA_FAILURES.ads,
      intent,
      inlineFields: ["card"],
      // A checkout that is not there (or not in test mode) is the 404 page, as the loader's.
      pageRefusals: ["not-found"],
    });
  }
}

export default function TestCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { session } = loaderData;
  const failure = actionData as FailureData | undefined;
  useActionToast(failure?.toast);
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && submittedIntent(navigation.formData) === "pay-checkout";
  const total = formatUsd(session.amountTotal);
  const expired = session.status === "expired";
  return (
    <div className="mx-auto flex max-w-md flex-col gap-3">
      <p
        role="note"
        className="rounded-xl border-2 border-dashed border-amber-500 bg-amber-50 px-4 py-3 text-center text-sm font-bold tracking-wide text-amber-900"
      >
        TEST MODE – no card is charged
      </p>
      <div className="rounded-2xl border border-zinc-200 bg-white p-6">
        <h1 className="text-xl font-bold text-zinc-900">Checkout</h1>
        <p className="mt-2 text-[15px] text-zinc-700">
          Boost: {session.days} day{session.days === 1 ? "" : "s"} × $5.00 = <strong>{total}</strong>
        </p>
        {expired ? (
          <p role="alert" className="mt-4 text-sm text-red-700">
            {AD_MESSAGES.checkoutExpired}
          </p>
        ) : (
          <Form method="post" className="mt-5 flex flex-col gap-4">
            <Field
              label="Card number"
              name="card"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={TEST_CARDS.success}
              error={failure?.fieldError?.field === "card" ? failure.fieldError.message : null}
              hint={`Test cards: ${TEST_CARDS.success} pays; ${TEST_CARDS.declined} is declined.`}
            />
            <div className="grid grid-cols-2 gap-3">
              <Field label="Expiry" name="expiry" defaultValue="12 / 34" autoComplete="off" />
              <Field label="CVC" name="cvc" defaultValue="123" autoComplete="off" />
            </div>
            <Button type="submit" name="intent" value="pay-checkout" processing={paying} className="h-12">
              Pay {total}
            </Button>
            <Button type="submit" name="intent" value="cancel-checkout" variant="secondary" className="h-11">
              Cancel
            </Button>
          </Form>
        )}
      </div>
    </div>
  );
}
