import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle, SUPPORT_EMAIL } from "~/app/components/shell/campus";
import type { Route } from "./+types/feedback";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Give Us Feedback", matches[0]?.loaderData?.campus) }];
}

export default function Feedback() {
  return (
    <SettingsPage title="Give Us Feedback">
      <div className="prose-page">
        <p>
          Campus Buy Sell is built by students, for students, and it gets better because of what you tell us.
          We would love to hear:
        </p>
        <ul>
          <li>what you like, and what annoys you;</li>
          <li>features you wish existed;</li>
          <li>bugs: what you did, what you expected, and what happened instead (a screenshot helps);</li>
          <li>schools we should add next.</li>
        </ul>
        <p>
          The quickest way to reach us is a direct message. You can also e-mail{" "}
          <a href={`mailto:${SUPPORT_EMAIL}?subject=Feedback`}>{SUPPORT_EMAIL}</a>.
        </p>
      </div>
      <DirectMessageButton className="mt-6" />
    </SettingsPage>
  );
}
