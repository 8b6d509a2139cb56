import { data } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { AddSafetyRuleForm, SafetyRuleCard } from "~/app/components/admin/safety-rules";
import { pageTitle } from "~/app/components/shell/campus";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import {
  addSafetyRule,
  listSafetyRules,
  type SafetyRuleSwitchInput,
  setSafetyRuleEnabled,
} from "~/server/safety/admin-rules";
import { type NewSafetyRuleInput, SAFETY_ADMIN_MESSAGES } from "~/server/safety/admin-rules.shared";
import { requireSiteAdmin } from "~/server/staff/roles";
import type { Route } from "./+types/safety";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin, decision 0520). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Safety rules · Console", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0654: site admins only; anyone else, signed out included, gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const rules = await orNotFound(listSafetyRules(args.context.app, viewer));
  return data({ rules });
}

const INTENTS = z.enum(["add-rule", "switch-rule"]);
const FAILURES = {
  fallback: SAFETY_ADMIN_MESSAGES.somethingWentWrong,
  logMessage: "console safety action failed",
};
const INLINE = ["name", "scope", "action", "pattern", "message"] as const;

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  const fields = formFields(form);
  try {
    let message: string;
    if (intent === "add-rule") {
      const added = await orNotFound(addSafetyRule(app, viewer, fields as NewSafetyRuleInput));
      message = `${SAFETY_ADMIN_MESSAGES.added} (${added.name})`;
    } else {
      const rule = await orNotFound(setSafetyRuleEnabled(app, viewer, fields as SafetyRuleSwitchInput));
      message = `${rule.enabled ? SAFETY_ADMIN_MESSAGES.switchedOn : SAFETY_ADMIN_MESSAGES.switchedOff} (${rule.name})`;
    }
    const toast: ToastInput = { message, type: "okay" };
    return data({ ok: true as const, intent, toast });
  } catch (error) {
    return failureReply(app, error, { intent, inlineFields: INLINE, ...FAILURES });
  }
}

/**
 * /admin/safety (decision 0654): the one rule set (docs/product/safety.md) — every rule with where
 * it applies, what it does and whether it is on — a form that adds a rule, and on/off per rule.
 */
export default function SafetyRules({ loaderData }: Route.ComponentProps) {
  const { rules } = loaderData;
  const added = rules.filter((rule) => !rule.builtin).length;
  return (
    <article aria-labelledby="safety-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <header>
        <h1 id="safety-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Safety rules
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          Checked on the server for every chat message and listing; comments meet the block rules for chat and
          listings. {rules.length - added} built in, {added} added. Rules are switched off, never deleted.
        </p>
      </header>
      <AddSafetyRuleForm />
      <ul className="flex flex-col gap-3" aria-label="Rules">
        {rules.map((rule) => (
          <SafetyRuleCard key={rule.id} rule={rule} />
        ))}
      </ul>
    </article>
  );
}
