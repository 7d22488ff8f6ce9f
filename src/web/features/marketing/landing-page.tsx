import {
  ArrowRight,
  Check,
  ChevronDown,
  CreditCard,
  Download,
  FileArchive,
  FileAudio,
  FileText,
  FileVideo,
  Link2,
  Percent,
  ShieldBan,
  Store,
} from "lucide-react";
import type { ComponentType, SVGProps } from "react";
import { DOWNLOAD_LINK_TERM } from "../../../contracts/download-terms";
import { PublicPageShell } from "../../components/layout/public-page-shell";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const FEATURES: { icon: Icon; title: string; body: string }[] = [
  {
    icon: Percent,
    title: "0% of your sales",
    body: "One flat $10 a month, however much you sell. The only cut of a sale is Stripe's own processing fee (about 2.9% + 30¢).",
  },
  {
    icon: Download,
    title: "Instant, secure downloads",
    body: "Buyers get a private link the moment they pay. Links expire, and each purchase allows 3 downloads within 30 days.",
  },
  {
    icon: Link2,
    title: "One shareable link per product",
    body: "Every product gets its own link. Drop it in your bio, newsletter, video description or DMs and start selling.",
  },
  {
    icon: CreditCard,
    title: "Your own Stripe account",
    body: "Connect the Stripe account you already have. Buyers pay you directly and payouts follow your Stripe schedule.",
  },
  {
    icon: Store,
    title: "A storefront of your own",
    body: "A public store page with your name, tagline, description and picture, listing every product you sell.",
  },
  {
    icon: ShieldBan,
    title: "Executables & malware blocked",
    body: "Every upload is checked by its content. Executables and known malware are rejected, so buyers can trust your files.",
  },
];

const UNLIMITED_PLAN = [
  "Unlimited products",
  "0% of sales taken",
  "Your own Stripe account",
  "Storefront + one link per product",
  "Secure, expiring download links",
  "250MB per file · 5GB storage",
  "100GB bandwidth per month",
];

const PRO_PLAN = [
  "Custom domains",
  "White-label storefront",
  "20-50GB storage",
  "Team seats",
  "Advanced analytics",
  "Priority support",
];

const FAQ: { question: string; answer: string }[] = [
  {
    question: "Do you really take 0% of my sales?",
    answer:
      "Yes. You pay a flat $10 per month and keep 100% of every sale. The only deduction is Stripe's standard processing fee (about 2.9% + 30¢ per sale), which Stripe charges on your own account, not us.",
  },
  {
    question: "How do refunds work?",
    answer:
      "You issue refunds from your dashboard and the money goes back to the buyer through your Stripe account. A refund revokes the buyer's licence and disables their download links immediately.",
  },
  {
    question: "What happens if my subscription payment fails?",
    answer:
      "You get a 3-day grace period to update your card, and everything keeps working. After that, purchase buttons are disabled while your product pages stay visible. Resubscribing reactivates everything at once; no data is deleted.",
  },
  {
    question: "What are the file and storage limits?",
    answer:
      "Each file can be up to 250MB, with 5GB of storage and 100GB of download bandwidth per month. PDFs, ZIPs, MP3s, e-books, documents and short videos all work.",
  },
  {
    question: "How many times can a buyer download a file?",
    answer: `Each purchase allows 3 downloads within 30 days. ${DOWNLOAD_LINK_TERM} Buyers can ask for a fresh one themselves at any time within those 30 days.`,
  },
  {
    question: "Do my buyers need an account?",
    answer:
      "No. Buyers pay by card and immediately get their download plus an email receipt with a link to their purchases. They can optionally create an account to keep a library of everything they've bought.",
  },
  {
    question: "Are there files I can't sell?",
    answer:
      "Executables (such as .exe, .dmg, .apk or installer scripts) and known malware are blocked. Files are checked by their actual content when you upload, not just by their name.",
  },
];

function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 -z-10 h-[36rem] bg-[radial-gradient(ellipse_at_top,var(--color-brand-100),transparent_65%)]"
      />
      <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 pt-16 pb-20 sm:px-6 md:pt-24 lg:grid-cols-[1.1fr_1fr] lg:pb-28">
        <div>
          <Badge tone="brand" className="mb-6">
            Flat $10/month · 0% of sales
          </Badge>
          <h1 className="text-4xl font-bold tracking-tight text-balance text-ink sm:text-5xl lg:text-6xl">
            Sell unlimited digital products for $10/mo
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-muted">
            Upload your PDFs, ZIPs, audio and video, connect your own Stripe, and share one link per product.
            You keep every sale. We never take a cut.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg">
              <a href="/auth">
                Get Started Now
                <ArrowRight aria-hidden="true" />
              </a>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <a href="#pricing">View Details</a>
            </Button>
          </div>
          <p className="mt-5 text-sm text-muted">No setup fees. Cancel anytime. Buyers need no account.</p>
        </div>
        <HeroIllustration />
      </div>
    </section>
  );
}

const FILE_KINDS: { kind: string; icon: Icon }[] = [
  { kind: "pdf", icon: FileText },
  { kind: "zip", icon: FileArchive },
  { kind: "audio", icon: FileAudio },
  { kind: "video", icon: FileVideo },
];

/** A sketch of a product link and its payout, to show the idea at a glance. */
function HeroIllustration() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <Card className="p-5 shadow-lift">
        <div className="flex items-center gap-4">
          <div className="flex size-14 items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-brand-700 text-white">
            <FileText className="size-7" />
          </div>
          <div className="min-w-0">
            <p className="truncate font-semibold text-ink">Freelance Pricing Playbook</p>
            <p className="text-sm text-muted">PDF · 18 MB</p>
          </div>
          <p className="ml-auto text-lg font-semibold text-ink">$29.00</p>
        </div>
        <div className="mt-4 flex items-center gap-2 rounded-lg border border-line bg-canvas px-3 py-2 font-mono text-xs text-muted">
          <Link2 className="size-3.5 shrink-0" />
          <span className="truncate">flatfee.app/product/freelance-pricing</span>
        </div>
        <div className="mt-5 grid grid-cols-3 gap-3 text-center">
          <div className="rounded-lg bg-canvas p-3">
            <p className="text-xs text-muted">Sale</p>
            <p className="font-semibold text-ink">$29.00</p>
          </div>
          <div className="rounded-lg bg-canvas p-3">
            <p className="text-xs text-muted">Our cut</p>
            <p className="font-semibold text-ink">$0.00</p>
          </div>
          <div className="rounded-lg bg-emerald-50 p-3">
            <p className="text-xs text-emerald-700">You keep*</p>
            <p className="font-semibold text-emerald-800">$27.86</p>
          </div>
        </div>
        <p className="mt-3 text-xs text-muted">*After Stripe's processing fee.</p>
      </Card>
      <div className="mt-4 flex justify-center gap-3 text-muted">
        {FILE_KINDS.map(({ kind, icon: FileIcon }) => (
          <span key={kind} className="rounded-lg border border-line bg-white p-2 shadow-card">
            <FileIcon className="size-5" />
          </span>
        ))}
      </div>
    </div>
  );
}

function SectionHeading({ eyebrow, title, intro }: { eyebrow: string; title: string; intro: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
      <h2 className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h2>
      <p className="mt-4 text-lg text-muted">{intro}</p>
    </div>
  );
}

function Features() {
  return (
    <section id="features" className="border-y border-line bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          eyebrow="Features"
          title="Everything you need to sell files"
          intro="No marketplace, no revenue share, no surprises. Just your products, your link and your Stripe."
        />
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: FeatureIcon, title, body }) => (
            <li key={title}>
              <Card className="h-full p-6 transition-shadow hover:shadow-lift">
                <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
                  <FeatureIcon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-5 text-base font-semibold text-ink">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted">{body}</p>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function PlanFeatures({ items, muted = false }: { items: string[]; muted?: boolean }) {
  return (
    <ul className="mt-8 mb-8 flex-1 space-y-3 text-sm">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-3">
          <Check
            aria-hidden="true"
            className={
              muted ? "mt-0.5 size-4 shrink-0 text-slate-400" : "mt-0.5 size-4 shrink-0 text-brand-600"
            }
          />
          <span className={muted ? "text-muted" : "text-ink"}>{item}</span>
        </li>
      ))}
    </ul>
  );
}

function Pricing() {
  return (
    <section id="pricing" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          eyebrow="Pricing"
          title="One flat price. Keep 100% of your sales."
          intro="Stripe's processing fee (about 2.9% + 30¢ per sale) goes to Stripe. We take nothing."
        />
        <div className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
          <Card className="relative flex flex-col p-8 ring-2 ring-brand-600">
            <Badge tone="brand" className="absolute -top-3 left-8 bg-brand-600 text-white ring-brand-600">
              Available now
            </Badge>
            <h3 className="text-lg font-semibold text-ink">Unlimited</h3>
            <p className="mt-1 text-sm text-muted">For solo creators selling any number of products.</p>
            <p className="mt-6 flex items-baseline gap-1">
              <span className="text-5xl font-bold tracking-tight text-ink">$10</span>
              <span className="text-muted">/month</span>
            </p>
            <PlanFeatures items={UNLIMITED_PLAN} />
            <Button asChild size="lg" className="w-full">
              <a href="/auth">Subscribe Now</a>
            </Button>
          </Card>
          <Card className="flex flex-col bg-slate-50/60 p-8">
            <div className="flex items-center justify-between gap-3">
              <h3 className="text-lg font-semibold text-ink">Pro/Agency</h3>
              <Badge tone="warning">Coming soon</Badge>
            </div>
            <p className="mt-1 text-sm text-muted">For teams, agencies and bigger catalogues.</p>
            <p className="mt-6 flex flex-wrap items-baseline gap-x-2">
              <span className="text-5xl font-bold tracking-tight text-slate-500">TBA</span>
              <span className="text-muted">price to be announced</span>
            </p>
            <PlanFeatures items={PRO_PLAN} muted />
            <Button size="lg" variant="secondary" className="w-full" disabled>
              Notify me
            </Button>
          </Card>
        </div>
      </div>
    </section>
  );
}

function Faq() {
  return (
    <section id="faq" className="border-t border-line bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <SectionHeading
          eyebrow="FAQ"
          title="Frequently asked questions"
          intro="The short answers about fees, refunds, limits and downloads."
        />
        {/* One group name: the browser keeps one answer open at a time, without any script. */}
        <div className="mt-12">
          {FAQ.map(({ question, answer }) => (
            <details key={question} name="faq" className="group border-b border-line last:border-b-0">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md py-5 text-left text-base font-medium text-ink transition-colors outline-none hover:text-brand-700 focus-visible:ring-2 focus-visible:ring-brand-500 [&::-webkit-details-marker]:hidden">
                {question}
                <ChevronDown
                  aria-hidden="true"
                  className="size-5 shrink-0 text-muted transition-transform duration-200 group-open:rotate-180"
                />
              </summary>
              <p className="pb-5 text-sm leading-relaxed text-muted">{answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}

function ClosingCallToAction() {
  return (
    <section className="py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-14 text-center text-white shadow-lift sm:px-12">
          <h2 className="text-3xl font-bold tracking-tight sm:text-4xl">Your next sale is one link away</h2>
          <p className="mx-auto mt-4 max-w-xl text-brand-100">
            Set up your store in minutes. $10 a month, unlimited products, 0% of your sales.
          </p>
          <Button asChild size="lg" variant="secondary" className="mt-8 border-transparent">
            <a href="/auth">Create your store</a>
          </Button>
        </div>
      </div>
    </section>
  );
}

/** The landing page `/`, rendered on the server (features/public-pages): the same for everyone. */
export function LandingPage({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <PublicPageShell signedIn={signedIn}>
      <Hero />
      <Features />
      <Pricing />
      <Faq />
      <ClosingCallToAction />
    </PublicPageShell>
  );
}
