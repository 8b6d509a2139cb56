import { Link } from "react-router";
import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import { NumberedSteps } from "~/app/components/settings/numbered-steps";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import type { Route } from "./+types/returns";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Return Policy", matches[0]?.loaderData?.campus) }];
}

// spec 1 §2 'Settings' and spec 2 §9: message the seller within 2 days, then 2 more days to
// report to us; after that the transaction is assumed complete.
const flow = [
  {
    title: "Message the seller within 2 days",
    text: "If an item is not as described, is damaged or does not work, send the seller a direct message within 2 days of receiving it. Most problems are solved right there with a return, an exchange or a partial refund.",
  },
  {
    title: "Report it to us within 2 more days",
    text: "If you and the seller cannot sort it out, you have 2 more days to report the problem to us. Tell us what you bought, from whom, and what went wrong; photos help.",
  },
  {
    title: "After that, the sale is complete",
    text: "When both periods have passed without a report, the transaction is assumed complete and we can no longer help with a return.",
  },
];

export default function Returns() {
  return (
    <SettingsPage title="Return Policy">
      <div className="prose-page">
        <p>
          Most sales on Campus Buy Sell happen face to face: you see the item and pay in person, so please
          check it carefully before you pay. When something still goes wrong, this is how a return works.
        </p>
      </div>
      <NumberedSteps steps={flow} className="mt-6" />
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
