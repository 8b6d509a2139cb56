import { data } from "react-router";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { TrustConditions } from "~/app/components/trust/trust-conditions";
import { requireUser } from "~/app/lib/viewer.server";
import { ACTIVE_PRICED_LISTINGS, CONVERSATIONS_PER_DAY } from "~/server/trust/levels.shared";
import { getOwnTrustStanding } from "~/server/trust/standing";
import type { Route } from "./+types/trust";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Trust level", matches[0]?.loaderData?.campus) }];
}

/** Decision 0663: the student's own level, what it rests on and what lifts it. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const standing = await getOwnTrustStanding(args.context.app, viewer);
  return data({
    level: standing.level,
    name: standing.name,
    reasons: standing.reasons,
    next: standing.next,
    whatLifts: standing.whatLifts,
    locked: standing.locked !== null,
  });
}

export default function TrustLevelPage({ loaderData }: Route.ComponentProps) {
  const { level, name, reasons, next, whatLifts, locked } = loaderData;
  return (
    <SettingsPage title="Trust level" backTo="/settings/account">
      <section className="rounded-lg border border-zinc-200 bg-white p-4">
        <h2 className="text-lg font-semibold" data-testid="trust-level">
          {name}
        </h2>
        <p className="mt-1 text-sm text-zinc-700">
          You can start {CONVERSATIONS_PER_DAY[level]} new conversations a day and have{" "}
          {ACTIVE_PRICED_LISTINGS[level]} priced listings for sale at once.
        </p>
        {reasons.length > 0 ? <TrustConditions className="mt-2" items={reasons} /> : null}
        {locked ? <p className="mt-3 text-sm text-zinc-700">Staff set this level.</p> : null}
        {whatLifts ? <p className="mt-3 text-sm font-medium">{whatLifts}</p> : null}
      </section>
      {next && !locked ? (
        <section className="mt-4 rounded-lg border border-zinc-200 bg-white p-4">
          <h2 className="font-semibold">Next: {next.name}</h2>
          <TrustConditions className="mt-2" items={next.conditions} />
        </section>
      ) : null}
    </SettingsPage>
  );
}
