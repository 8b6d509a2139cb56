import { Link } from "react-router";
import { NumberedSteps } from "~/app/components/settings/numbered-steps";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import type { Route } from "./+types/how-it-works";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("How It Works", matches[0]?.loaderData?.campus) }];
}

// spec 1 §2 'Settings' and spec 2 §1: posting takes under 30 seconds; pay in person; meet in a safe spot.
const steps = [
  {
    title: "Join your campus",
    text: "Sign up with your e-mail, confirm the 4-digit code we send you, then verify your school e-mail so other students know you belong.",
  },
  {
    title: "Post in under 30 seconds",
    text: "Write what you are selling or looking for, add a price and up to 10 photos or videos, and post. It takes under 30 seconds.",
  },
  {
    title: "Message each other",
    text: "Buyers send the seller a direct message to ask questions, agree on a price and pick a time and place.",
  },
  {
    title: "Meet in a safe spot and pay in person",
    text: "Meet in a busy, well-lit public place on or near campus, check the item, and pay in person once you are happy with it.",
  },
];

export default function HowItWorks() {
  return (
    <SettingsPage title="How It Works">
      <NumberedSteps steps={steps} />
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
