import { Link } from "react-router";
import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import helpTexts from "~/app/components/settings/help-texts.json";
import { NumberedSteps } from "~/app/components/settings/numbered-steps";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import type { Route } from "./+types/returns";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Return Policy", matches[0]?.loaderData?.campus) }];
}

export default function Returns() {
  return (
    <SettingsPage title="Return Policy">
      <div className="prose-page">
        <p>
          Most sales on Campus Buy Sell happen face to face: you see the item and pay in person, so please
          check it carefully before you pay. When something still goes wrong, this is how a return works.
        </p>
      </div>
      {/* spec 1 §2 'Settings' and spec 2 §9: message the seller within 2 days, then 2 more days to report to us; after that the transaction is assumed complete. */}
      <NumberedSteps steps={helpTexts.returnSteps} className="mt-6" />
      <div className="prose-page mt-6">
        <p>
          Refunds for payments made through Campus Buy Sell follow the same timeline and are described in our{" "}
          <Link to="/settings/terms">Terms of Service</Link>. To report a problem, send us a message:
        </p>
      </div>
      <DirectMessageButton className="mt-4" />
    </SettingsPage>
  );
}
