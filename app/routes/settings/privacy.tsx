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
          personal information, except what we must keep by law or to resolve disputes (see below).
        </p>

        {/* Decision 0570: the archive, in the product's words. */}
        <section id="download" aria-labelledby="download-title">
          <h2 id="download-title">Download your data</h2>
          <p>
            In <Link to="/settings/account/data">Settings › Account › Your data</Link>, choose Download my
            data. We prepare a ZIP file with everything we keep about you: your profile and settings, your
            posts and comments with their photos and videos, what you saved and searched, the messages you
            sent and received, your notifications, ads and payments, and a README that explains each file. It
            holds nothing of other students except the messages they exchanged with you.
          </p>
          <p>
            When it is ready we e-mail you a link. The link works once, for 7 days, and only while you are
            signed in to your account; nobody else can open it. You can ask for one archive a day.
          </p>
        </section>

        {/* Decision 0571: deleting an account, in the product's words. */}
        <section id="delete" aria-labelledby="delete-title">
          <h2 id="delete-title">Delete your account</h2>
          <p>
            In the same place, choose Delete my account and confirm with your password (or, if you sign in
            with Google or an e-mail link, with a code we e-mail you). Then, at once:
          </p>
          <ul>
            <li>
              your profile, posts, comments, photos and videos, saves, searches, notifications and browser
              push subscriptions are deleted, and you are signed out everywhere;
            </li>
            <li>your running ads stop and the days they have not run are refunded;</li>
            <li>
              the messages you sent stay in the other person&apos;s conversation, shown from &lsquo;Deleted
              account&rsquo; with no link to you;
            </li>
            <li>
              payment records are kept without your name, because the law asks us to keep financial records;
            </li>
            <li>
              records of reports and moderation decisions are kept without your name, to keep the community
              safe.
            </li>
          </ul>
          <p>
            Your profile page then no longer exists and nobody can find you in search. Your username and
            e-mail address stay reserved for 30 days, so nobody can pretend to be you; after that they can be
            used for a new account. Deleting an account cannot be undone: download your data first if you want
            a copy.
          </p>
        </section>

        <h2>Your choices</h2>
        <ul>
          <li>
            Edit your profile and account details in <Link to="/settings">Settings</Link> at any time.
          </li>
          <li>Turn e-mail notifications on or off.</li>
          <li>
            Download a copy of your information, or delete your account, in{" "}
            <Link to="/settings/account/data">Your data</Link>.
          </li>
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
