import { Link } from "react-router";
import helpTexts from "~/app/components/settings/help-texts.json";
import { NumberedSteps } from "~/app/components/settings/numbered-steps";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import type { Route } from "./+types/how-it-works";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("How It Works", matches[0]?.loaderData?.campus) }];
}

export default function HowItWorks() {
  return (
    <SettingsPage title="How It Works">
      {/* spec 1 §2 'Settings' and spec 2 §1: posting takes under 30 seconds; pay in person; meet in a safe spot. */}
      <NumberedSteps steps={helpTexts.howItWorksSteps} />
      <div className="prose-page mt-8 border-t border-zinc-100 pt-6">
        <h2 className="mt-0">Tips for a smooth deal</h2>
        <ul>
          <li>Meet in daylight in a public place: a student union, a library lobby or a campus café.</li>
          <li>Bring a friend along, and tell someone where you are going.</li>
          <li>
            Inspect the item before you pay, and pay in person. Never send money ahead for an item you have
            not seen.
          </li>
          <li>
            Keep the conversation in Campus Buy Sell messages, so there is a record if something goes wrong.
          </li>
        </ul>
        <p>
          Something not right after a purchase? See the <Link to="/settings/returns">Return Policy</Link>.
        </p>
      </div>
    </SettingsPage>
  );
}
