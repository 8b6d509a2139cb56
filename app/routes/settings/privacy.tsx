import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle, SUPPORT_EMAIL } from "~/app/components/shell/campus";
import type { Route } from "./+types/privacy";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Privacy Policy", matches[0]?.loaderData?.campus) }];
}

/** spec 1 §2 'Settings': the privacy policy; /settings/cookies shows it at its #cookies section. */
export default function Privacy() {
  const { pathname } = useLocation();

  useEffect(() => {
    if (pathname.replace(/\/+$/, "") === "/settings/cookies") {
      document.getElementById("cookies")?.scrollIntoView({ block: "start" });
    }
  }, [pathname]);

  return (
    <SettingsPage title="Privacy Policy" subtitle="Last updated June 24, 2022">
      <div className="prose-page">
        <p>
          This policy explains what information Campus Buy Sell collects, how we use it, and the choices you
          have. We collect only what we need to run a safe marketplace for students, and we never sell your
          personal information.
        </p>

        <h2>Information you give us</h2>
        <ul>
          <li>
            Account details: your name, e-mail address, password (stored only as a secure hash) and username.
          </li>
          <li>Verification: your school e-mail address, to confirm you belong to your campus.</li>
          <li>Profile details you choose to add: photo, bio, phone number, gender and birth date.</li>
          <li>Content: posts, photos, videos, comments and messages you send.</li>
          <li>
            Payments: when you boost a post, our payment provider processes your card; we keep a record of the
            payment, not your card number.
          </li>
        </ul>

        <h2>Information we collect automatically</h2>
        <ul>
          <li>
            Your network address and the time zone of your browser, to keep the Service available only in the
            United States and to protect accounts from abuse.
          </li>
          <li>Basic technical logs (pages requested, errors) that help us keep the Service running.</li>
        </ul>
        <p>
          Photos are re-encoded when you upload them, which removes hidden metadata such as the location where
          they were taken.
        </p>

        <h2>How we use information</h2>
        <ul>
          <li>
            To run the Service: show your posts, deliver your messages, send verification codes and
            notifications.
          </li>
          <li>To keep the community safe: verify students, prevent spam and fraud, and enforce our rules.</li>
          <li>To answer you when you contact us, and to improve the Service.</li>
        </ul>

        <h2>What others can see</h2>
        <p>
          Your name, username, photo, bio and posts are visible to people who visit your campus community.
          Your e-mail addresses, phone number, gender and birth date are not shown publicly. Messages are
          visible only to the people in the conversation.
        </p>

        <h2>Sharing</h2>
        <p>
          We share information only with service providers that help us run the Service (such as e-mail
          delivery and payment processing), under contracts that limit their use of it; when the law requires
          it; or to protect the safety of our users.
        </p>

        <section id="cookies" aria-labelledby="cookies-title">
          <h2 id="cookies-title">Cookies</h2>
          <p>We use a small number of cookies, all needed for the Service to work:</p>
          <ul>
            <li>a session cookie that keeps you signed in, for up to 30 days or until you log out;</li>
            <li>a short-lived cookie that carries a confirmation message to the next page you see.</li>
          </ul>
          <p>
            We do not use advertising cookies or let third parties track you across other websites. You can
            block or delete cookies in your browser settings, but you will not be able to stay signed in
            without the session cookie.
          </p>
        </section>

        <h2>How long we keep information</h2>
        <p>
          We keep your account information for as long as your account exists. Verification codes expire after
          two hours and are deleted once used. When you delete your account we delete or anonymize your
          personal information, except what we must keep by law or to resolve disputes.
        </p>

        <h2>Your choices</h2>
        <ul>
          <li>
            Edit your profile and account details in <Link to="/settings">Settings</Link> at any time.
          </li>
          <li>Turn e-mail notifications on or off.</li>
          <li>Ask us for a copy of your information, or to delete your account, by writing to us.</li>
        </ul>

        <h2>Children</h2>
        <p>
          The Service is not meant for anyone under 16, and we do not knowingly collect information from them.
          See the <Link to="/settings/terms">Terms of Service</Link> for our age rules.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about your privacy? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </div>
    </SettingsPage>
  );
}
