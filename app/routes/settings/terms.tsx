import { Link } from "react-router";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle, SUPPORT_EMAIL } from "~/app/components/shell/campus";
import type { Route } from "./+types/terms";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Terms of Service", matches[0]?.loaderData?.campus) }];
}

/** spec 2 §2 'Terms' and §9: the Terms of Service with the spec's constants. */
export default function Terms() {
  return (
    <SettingsPage title="Terms of Service" subtitle="Last updated May 27, 2021">
      <div className="prose-page">
        <p>
          These Terms of Service ("Terms") govern your use of Campus Buy Sell, its campus sites and its apps
          (together, the "Service"). By creating an account or using the Service you agree to these Terms and
          to our <Link to="/settings/privacy">Privacy Policy</Link>. Please read them carefully: section 10
          requires most disputes to be resolved by individual arbitration.
        </p>

        <h2>1. Eligibility</h2>
        <ul>
          <li>You must be at least 16 years old to use the Service.</li>
          <li>
            If you are under 18, you may use the Service only with the permission and involvement of a parent
            or legal guardian, who agrees to these Terms on your behalf.
          </li>
          <li>You must live in the United States.</li>
          <li>You may not use the Service if we have previously banned your account.</li>
        </ul>

        <h2>2. Your account</h2>
        <p>
          Give accurate information when you sign up, keep your password to yourself and tell us right away if
          you think someone else is using your account. You are responsible for what happens under your
          account. Joining a campus community requires a valid school e-mail address of that school.
        </p>

        <h2>3. Posting and content</h2>
        <p>
          You keep ownership of what you post. You give us a worldwide, non-exclusive, royalty-free license to
          host, display and distribute it in order to run and promote the Service. You are responsible for
          your posts and confirm you have the right to share them. Posts must follow our{" "}
          <Link to="/settings/trust_and_safety">Trust and Safety</Link> code of conduct; we may remove content
          or limit accounts that break it.
        </p>

        <h2>4. Buying and selling</h2>
        <p>
          Campus Buy Sell is a venue: sales are agreements between buyers and sellers, and we are not a party
          to them. We do not inspect items and do not guarantee their quality, safety or legality, or that the
          people involved will complete a sale. Most deals are completed in person; meet in a safe public
          place and pay in person.
        </p>

        <h2>5. Payments and payouts</h2>
        <p>When a payment is made through the Service:</p>
        <ul>
          <li>
            The seller's payout is released about 3-5 business days after the item has been delivered to the
            buyer.
          </li>
          <li>
            Sellers must set up a payment account within 90 days of their first sale. Funds that cannot be
            paid out because no payment account was set up in that time may be refunded to the buyer.
          </li>
          <li>
            Boosted posts and ads are charged in US dollars at the price shown before you pay. Payments are
            processed by our card payment provider; we do not store your full card number.
          </li>
        </ul>

        <h2>6. Shipping</h2>
        <p>
          A seller who agrees to ship an item must ship it within 3 business days of the sale and give the
          buyer the tracking details. If an item is not shipped in that time, the buyer may cancel and be
          refunded.
        </p>

        <h2>7. Refunds and returns</h2>
        <ol>
          <li>
            If something is wrong with an item, the buyer messages the seller within 2 days of receiving it.
          </li>
          <li>If they cannot resolve it, the buyer has 2 more days to report the problem to us.</li>
          <li>
            After that, the transaction is assumed complete and the seller's payout is released. When a report
            is made in time, we review both sides and may refund the buyer, in full or in part.
          </li>
        </ol>
        <p>
          The same steps are explained in our <Link to="/settings/returns">Return Policy</Link>.
        </p>

        <h2>8. Termination</h2>
        <p>
          You may stop using the Service and delete your account at any time. We may suspend or end your
          access if you break these Terms, create risk for other users or for us, or if the law requires it.
        </p>

        <h2>9. Disclaimers and limitation of liability</h2>
        <p>
          The Service is provided "as is" and "as available", without warranties of any kind to the extent the
          law allows. To the fullest extent the law allows, we are not liable for indirect, incidental,
          special, consequential or punitive damages, or for lost profits, data or goodwill. Our total
          liability for any claim arising from these Terms or the Service is limited to the greater of $100 or
          the amount you paid us in the 12 months before the claim arose.
        </p>

        <h2>10. Disputes and arbitration</h2>
        <ul>
          <li>
            Any claim arising from these Terms or the Service must be brought within one year after it arose,
            or it is permanently barred.
          </li>
          <li>
            Except for claims that qualify for small claims court, disputes are resolved by final and binding
            individual arbitration, not in court, and not as a class action.
          </li>
          <li>
            For claims under $10,000, the arbitration may be held by video conference, so neither side has to
            travel.
          </li>
          <li>
            You may opt out of arbitration by writing to us within 30 days after you first accept these Terms.
            Opting out does not affect any other part of these Terms.
          </li>
        </ul>

        <h2>11. Changes to these Terms</h2>
        <p>
          We may update these Terms. When a change is material we will give you 30 days' notice, on the
          Service or by e-mail, before it takes effect. If you keep using the Service after that, you accept
          the updated Terms.
        </p>

        <h2>12. Contact</h2>
        <p>
          Questions about these Terms? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or
          visit <Link to="/settings/help">Customer Support</Link>.
        </p>
      </div>
    </SettingsPage>
  );
}
