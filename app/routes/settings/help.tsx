import { Link } from "react-router";
import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import helpTexts from "~/app/components/settings/help-texts.json";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle, SUPPORT_EMAIL } from "~/app/components/shell/campus";
import { Disclosure, DisclosureList } from "~/app/components/ui/disclosure";
import type { Route } from "./+types/help";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Customer Support", matches[0]?.loaderData?.campus) }];
}

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
        {helpTexts.supportQuestions.map((item) => (
          <Disclosure key={item.title} summary={item.title}>
            {item.text}
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
