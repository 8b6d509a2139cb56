import { Link } from "react-router";
import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { useRootData } from "~/app/lib/root-data";
import type { Route } from "./+types/about";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("About", matches[0]?.loaderData?.campus) }];
}

export default function About() {
  const { campus } = useRootData();
  const brand = campusBrand(campus);
  return (
    <SettingsPage title="About">
      <div className="prose-page">
        <p>
          <strong>{brand}</strong> is{" "}
          {campus.school ? (
            <>
              the buy and sell community of students at <strong>{campus.school}</strong>
            </>
          ) : (
            "a family of buy and sell communities for university students"
          )}
          . Sell the textbook you no longer need, find a couch for next semester, sublease your room, or ask
          who has a spare ticket for Saturday: it all happens among people from your own campus.
        </p>
        <h2>One community per campus</h2>
        <p>
          Every school has its own site and its own feed. To post, comment, save or message you sign up and
          confirm your school e-mail address, so the people you deal with are students like you and not
          strangers from across the country. Visitors can look around before they join.
        </p>
        <h2>Built for meeting in person</h2>
        <p>
          Most deals here are local: you agree on a price in a message, meet somewhere safe on or near campus,
          look at the item, and pay in person. Read <Link to="/settings/howitworks">How It Works</Link> and
          our <Link to="/settings/trust_and_safety">Trust and Safety</Link> guidelines before your first deal.
        </p>
        <h2>Independent from your school</h2>
        <p>
          Campus Buy Sell is run by students and is not affiliated with, endorsed by or sponsored by any
          university. School names and e-mail domains are used only to make sure members belong to the campus
          they join.
        </p>
        <h2>Say hello</h2>
        <p>Questions, ideas, or something we should fix? Send us a message, we answer every one.</p>
      </div>
      <DirectMessageButton className="mt-6" />
    </SettingsPage>
  );
}
