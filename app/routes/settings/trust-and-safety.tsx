import { Link } from "react-router";
import { DirectMessageButton } from "~/app/components/settings/direct-message-button";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import type { Route } from "./+types/trust-and-safety";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Trust and Safety", matches[0]?.loaderData?.campus) }];
}

/** spec 1 §2 'Settings': the trust and safety code of conduct. */
export default function TrustAndSafety() {
  return (
    <SettingsPage title="Trust and Safety" subtitle="Our code of conduct">
      <div className="prose-page">
        <p>
          Campus Buy Sell works because students trust each other. Everyone who joins agrees to this code of
          conduct. It applies to posts, comments, messages, profiles and the meetups they lead to.
        </p>

        <h2>Be who you say you are</h2>
        <ul>
          <li>Use your real name and your own school e-mail. One account per person.</li>
          <li>Do not pretend to be another student, a staff member, a business or Campus Buy Sell.</li>
        </ul>

        <h2>Post honestly</h2>
        <ul>
          <li>Describe items accurately, including flaws, and use your own photos.</li>
          <li>Post the real price. No bait-and-switch, fake giveaways or chain posts.</li>
          <li>Only sell what is yours to sell, and remove a post once the item is gone.</li>
        </ul>

        <h2>Never post or sell</h2>
        <ul>
          <li>Weapons, ammunition, explosives or fireworks.</li>
          <li>Drugs, drug paraphernalia, alcohol, tobacco or vaping products, and prescription medicine.</li>
          <li>Stolen, counterfeit or recalled goods, and anything illegal to sell in your state.</li>
          <li>Exam answers, graded coursework or any other service that breaks academic integrity rules.</li>
          <li>Animals, personal documents such as IDs, and adult content.</li>
        </ul>

        <h2>Treat people with respect</h2>
        <ul>
          <li>No harassment, hate speech, threats, bullying or unwanted advances.</li>
          <li>Do not share anyone's private information, photos or messages without their consent.</li>
          <li>No spam, and no messaging people who have asked you to stop.</li>
        </ul>

        <h2>Keep deals safe</h2>
        <ul>
          <li>Meet in a busy public place, and pay in person once you have seen the item.</li>
          <li>
            Never pay with gift cards or wire transfers, and be wary of anyone who asks to move the chat off
            Campus Buy Sell or to pay more than the asking price.
          </li>
          <li>Trust your instincts: if a deal feels wrong, walk away.</li>
        </ul>

        <h2>What we do</h2>
        <p>
          When someone breaks this code we may remove their content, limit their account or ban it, and we
          cooperate with campus and law enforcement authorities when safety is at risk. Reports are
          confidential. If you are in immediate danger, call 911 first.
        </p>
        {/* Decision 0549: the campus's public log, and the student's own standing (decision 0548). */}
        <p>
          Every action moderators take on your campus is listed, with its reason but without anyone's name, in
          the <Link to="/modlog">moderation log</Link>. If a moderator acted on your content or account, your{" "}
          <Link to="/settings/account/standing">account standing</Link> shows why, and lets you appeal within
          20 days.
        </p>
        <p>
          Seen something that breaks these rules? Report the profile or post, or message us directly. See also
          our <Link to="/settings/terms">Terms of Service</Link> and{" "}
          <Link to="/settings/returns">Return Policy</Link>.
        </p>
      </div>
      <DirectMessageButton className="mt-6" />
    </SettingsPage>
  );
}
