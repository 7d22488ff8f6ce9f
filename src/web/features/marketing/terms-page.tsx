import { LegalPage, type LegalSection } from "./legal-page";

const SECTIONS: LegalSection[] = [
  {
    title: "Acceptance of these Terms",
    body: (
      <p>
        These Terms of Service govern your use of Flatfee, the platform that lets creators sell digital files
        through their own Stripe account. By creating an account, subscribing, or buying through a Flatfee
        page you agree to these Terms. If you use Flatfee on behalf of a business, you accept them for that
        business.
      </p>
    ),
  },
  {
    title: "The service",
    body: (
      <p>
        Flatfee lets creators ("you") upload digital products such as PDFs, ZIP archives, audio and video,
        publish a storefront, and share one link per product. Buyers pay by card without needing an account
        and receive a private download link. Flatfee hosts your files and pages and delivers purchases; it is
        not a marketplace and is not the seller of your products.
      </p>
    ),
  },
  {
    title: "Your account",
    body: (
      <>
        <p>
          You must be at least 18 years old and give accurate information when you sign up. Keep your password
          secret: you are responsible for everything done with your account. Tell us promptly if you believe
          your account has been accessed without permission.
        </p>
        <p>
          One account belongs to one person or business. Accounts may not be shared, resold or transferred.
        </p>
      </>
    ),
  },
  {
    title: "Subscription and fees",
    body: (
      <>
        <p>
          Selling on Flatfee costs a flat $10 per month, billed in advance each month. The subscription
          includes unlimited products.
        </p>
        <p>
          <strong>We take no percentage of your sales.</strong> The only deduction from a sale is Stripe's own
          payment processing fee (about 2.9% + 30¢ per card payment in the United States), which Stripe
          charges to your Stripe account, not to Flatfee. You are responsible for any taxes on your sales and
          on your subscription.
        </p>
      </>
    ),
  },
  {
    title: "Payments through your own Stripe account",
    body: (
      <>
        <p>
          To sell, you connect your own Stripe account. Buyers' payments are made directly to that account and
          paid out on Stripe's schedule; Flatfee never holds your sales revenue. Your use of Stripe is also
          governed by Stripe's own agreements.
        </p>
        <p>
          You are the seller of record for your products: you set your prices, answer your buyers' questions,
          and handle chargebacks and disputes that Stripe raises against your account.
        </p>
      </>
    ),
  },
  {
    title: "Failed payments, cancellation and resubscribing",
    body: (
      <ul>
        <li>
          If your subscription payment fails, you have a 3-day grace period in which everything keeps working
          while you update your card.
        </li>
        <li>
          After the grace period, purchase buttons on your pages are disabled. Your product pages and
          storefront stay visible.
        </li>
        <li>
          You can cancel at any time. After cancellation your pages stay visible for 30 days with purchases
          disabled, and then stop being public.
        </li>
        <li>
          Resubscribing reactivates your store and products immediately. No data is deleted when you
          resubscribe.
        </li>
      </ul>
    ),
  },
  {
    title: "Your content and acceptable use",
    body: (
      <>
        <p>
          You keep all rights to the products and content you upload. You give Flatfee a limited licence to
          store, display and deliver them to your buyers solely to provide the service.
        </p>
        <p>You must have the right to sell everything you upload. You may not upload or sell:</p>
        <ul>
          <li>executable programs, installers or scripts, or archives that contain them;</li>
          <li>malware, viruses or any file designed to harm a buyer's device or data;</li>
          <li>content that is illegal, infringes someone else's rights, or deceives buyers.</li>
        </ul>
        <p>
          Executables and known malware are blocked when uploaded, and we may remove content or suspend
          accounts that break these rules. Fair-use limits apply: 250MB per file, 5GB of storage and 100GB of
          download bandwidth per month.
        </p>
      </>
    ),
  },
  {
    title: "Buyers, downloads and refunds",
    body: (
      <>
        <p>
          Each purchase allows 3 downloads within 30 days. The download link a buyer receives is valid for 24
          hours and can be reissued by the buyer at any time within the 30-day window; each individual
          download URL serves one download and must be started within a minute.
        </p>
        <p>
          You decide your own refund policy and issue refunds from your dashboard through Stripe. A refund
          revokes the buyer's licence to the product and disables their download links immediately.
        </p>
      </>
    ),
  },
  {
    title: "Availability and liability",
    body: (
      <>
        <p>
          We aim for 99.9% uptime each month, excluding announced maintenance, but we do not guarantee that
          the service will be uninterrupted or error-free. Keep your own copies of the files you sell.
        </p>
        <p>
          To the extent the law allows, Flatfee is provided "as is", and our total liability for any claim
          relating to the service is limited to the subscription fees you paid us in the 12 months before the
          claim. We are not liable for lost profits or indirect losses, or for the acts of Stripe, buyers or
          other third parties.
        </p>
      </>
    ),
  },
  {
    title: "Changes, termination and contact",
    body: (
      <>
        <p>
          We may update these Terms; if a change is material we will tell you by email at least 14 days before
          it takes effect. You may close your account at any time, and we may suspend or close accounts that
          seriously or repeatedly break these Terms. Sections that by their nature should survive termination
          (such as liability and your obligations to buyers) continue to apply.
        </p>
        <p>Questions about these Terms? Contact us through the Need Help card in your dashboard.</p>
      </>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      updated="November 22, 2026"
      intro={
        <p>
          Plain terms for a simple deal: you pay a flat $10 a month, you keep 100% of your sales minus
          Stripe's processing fee, and we keep your files safe and delivered.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
