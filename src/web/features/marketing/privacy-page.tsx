import { Link } from "react-router";
import { LegalPage, type LegalSection } from "./legal-page";

const SECTIONS: LegalSection[] = [
  {
    title: "Who we are and what this covers",
    body: (
      <p>
        This Privacy Policy explains what personal information Flatfee collects, why, and what we do with it.
        It covers creators who sell on Flatfee, buyers who purchase through Flatfee pages, and visitors to our
        website.
      </p>
    ),
  },
  {
    title: "Information we collect",
    body: (
      <ul>
        <li>
          <strong>Creators:</strong> email address, name, password (stored only as a secure hash), store name,
          tagline, description and picture, your products and files, and your subscription status.
        </li>
        <li>
          <strong>Buyers:</strong> email address, what you bought, the amount paid and when, and your download
          activity.
        </li>
        <li>
          <strong>Everyone:</strong> technical information such as IP address, browser type (user agent) and
          pages viewed, including anonymous store-view counts shown to creators.
        </li>
      </ul>
    ),
  },
  {
    title: "How we use information",
    body: (
      <p>
        We use information to run the service: to create and secure accounts, host and deliver files, process
        subscriptions, send receipts and password-reset emails, enforce download limits, show creators their
        sales and statistics, prevent fraud and abuse, and keep the service reliable. We do not sell personal
        information and we do not use it for third-party advertising.
      </p>
    ),
  },
  {
    title: "Payments and Stripe",
    body: (
      <p>
        Card payments are processed by Stripe. Card details are entered on Stripe's pages and never reach our
        servers. Purchases are paid directly to the creator's own Stripe account; Stripe shares with us the
        payment status, amount and buyer email needed to deliver the order. Stripe's use of your data is
        governed by Stripe's privacy policy.
      </p>
    ),
  },
  {
    title: "Buyer information shared with creators",
    body: (
      <p>
        When you buy a product, your email address and the details of that purchase (product, amount and date)
        are shared with the creator you bought from, so they can deliver, support and refund your order. Each
        creator only sees buyers of their own products. Creators are responsible for how they use your email,
        including following the law on marketing messages.
      </p>
    ),
  },
  {
    title: "Optional buyer accounts",
    body: (
      <p>
        Buyers never need an account to purchase. Every receipt includes a link to your purchases, and you may
        optionally create an account with the same email to keep a library of everything you have bought on
        Flatfee. You can delete that account at any time.
      </p>
    ),
  },
  {
    title: "Downloads and expiring links",
    body: (
      <p>
        Each purchase allows 3 downloads within 30 days. The link in your receipt is valid for 24 hours and
        can be reissued within the 30-day window; each individual download URL serves one download and must be
        started within a minute. To enforce these limits we record each download with its time and IP address.
        A refund revokes access and disables the download links.
      </p>
    ),
  },
  {
    title: "Cookies and local storage",
    body: (
      <p>
        We use one essential, httpOnly cookie to keep you signed in. We do not use advertising or cross-site
        tracking cookies. The website also keeps a small log of technical errors (at most 50 entries) in your
        browser's local storage to help diagnose problems; it stays on your device and you can clear it from
        the{" "}
        <Link to="/system-status" className="font-medium text-brand-700 underline underline-offset-2">
          System Monitor
        </Link>{" "}
        page.
      </p>
    ),
  },
  {
    title: "How long we keep information",
    body: (
      <ul>
        <li>Account and store information is kept while your account is open.</li>
        <li>
          After a creator cancels, their pages stay visible for 30 days with purchases disabled. Data is not
          deleted on cancellation, so resubscribing restores everything; you can ask us to delete it at any
          time.
        </li>
        <li>
          Transaction records (orders, amounts, dates and buyer emails) are kept for 7 years to meet tax and
          accounting obligations, even after a product or account is deleted.
        </li>
        <li>Technical logs are kept for a limited period for security and then deleted.</li>
      </ul>
    ),
  },
  {
    title: "Security",
    body: (
      <p>
        Traffic is encrypted in transit, passwords are stored only as strong one-way hashes, and product files
        are stored privately and delivered only through short-lived signed links. Uploads are checked for
        executables and known malware. No system is perfectly secure, but we work to protect your information
        and will notify affected users of a breach as the law requires.
      </p>
    ),
  },
  {
    title: "Your rights and changes to this policy",
    body: (
      <>
        <p>
          Depending on where you live, you may have the right to access, correct, export or delete your
          personal information, and to object to certain uses. To exercise these rights, contact us through
          the Need Help card in your dashboard or reply to any email we have sent you. Requests about a
          purchase may also be sent to the creator you bought from.
        </p>
        <p>
          If we change this policy in a material way we will notify creators by email and update the date
          above before the change takes effect.
        </p>
      </>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated="November 22, 2026"
      intro={
        <p>
          We collect only what we need to host your store and deliver your buyers' files, and we never sell
          it.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
