import { Link } from "react-router";
import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle, SUPPORT_EMAIL } from "~/app/components/shell/campus";
import { Disclosure, DisclosureList } from "~/app/components/ui/disclosure";
import type { Route } from "./+types/help";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Customer Support", matches[0]?.loaderData?.campus) }];
}

const questions = [
  {
    q: "I did not get my verification code.",
    a: "Codes usually arrive within a minute or two. Check your spam or junk folder, and make sure you typed your address correctly. A code is valid for two hours; you can ask for a new one from the verification screen.",
  },
  {
    q: "How do I join my campus?",
    a: "Verify your school e-mail: open Settings, then Account Settings, then School Email, enter your school address and type the 4-digit PIN we send to it.",
  },
  {
    q: "I forgot my password.",
    a: "Use the forgotten password link on the log-in screen and we will e-mail you a link to set a new one. It can take 1 to 2 minutes to arrive.",
  },
  {
    q: "Something is wrong with an item I bought.",
    a: "Message the seller within 2 days; if you cannot work it out, report it to us within 2 more days. The full steps are in the Return Policy.",
  },
  {
    q: "Someone is breaking the rules.",
    a: "Report the profile or post from its menu, or message us directly. We review every report.",
  },
];

export default function Help() {
  return (
    <SettingsPage title="Customer Support">
      <div className="prose-page">
        <p>
          We are here to help. Most answers are below; if yours is not, send us a direct message and a real
          person will get back to you, usually within a day.
        </p>
      </div>
      <DirectMessageButton className="mt-5" />
      <h2 className="mt-8 text-lg font-bold text-zinc-900">Common questions</h2>
      <DisclosureList className="mt-3">
        {questions.map((item) => (
          <Disclosure key={item.q} summary={item.q}>
            {item.a}
          </Disclosure>
        ))}
      </DisclosureList>
      <div className="prose-page mt-6">
        <p>
          Prefer e-mail? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. See also{" "}
          <Link to="/settings/howitworks">How It Works</Link> and{" "}
          <Link to="/settings/trust_and_safety">Trust and Safety</Link>.
        </p>
      </div>
    </SettingsPage>
  );
}
