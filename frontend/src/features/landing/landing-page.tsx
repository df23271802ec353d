import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { LocalModeNote } from "../../components/local-mode-note";
import { Button, buttonClasses } from "../../components/ui/button";
import { VideoModal } from "../../components/video-modal";
import { useAuth } from "../../lib/session/auth-context";
import { useSiteConfig } from "../../lib/site-config";
import { FaqAccordion, type FaqItem } from "./faq-accordion";
import { LandingFooter } from "./landing-footer";
import { LandingHeader } from "./landing-header";
import { PricingSection } from "./pricing-section";

const STEPS = [
  {
    title: "Sign in",
    text: "Create your account with one click through Google. No credit card, no forms.",
  },
  {
    title: "Add your API key",
    text: "Paste your own Google Places API key. It is encrypted before it is stored.",
  },
  {
    title: "Search",
    text: "Pick a business type and a city, state, ZIP code or address.",
  },
  {
    title: "Export",
    text: "Watch leads stream in live, then send them to Google Sheets or download a CSV.",
  },
];

const FEATURES = [
  {
    title: "Real-time results",
    text: "Businesses appear the moment they are found. No waiting for a batch job to finish.",
    icon: "M13 10V3L4 14h7v7l9-11h-7z",
  },
  {
    title: "Complete contact data",
    text: "Name, address, phone, website, rating and review count for every lead.",
    icon: "M3 5a2 2 0 0 1 2-2h3.28a1 1 0 0 1 .95.68l1.5 4.49a1 1 0 0 1-.5 1.21l-2.26 1.13a11.04 11.04 0 0 0 5.52 5.52l1.13-2.26a1 1 0 0 1 1.21-.5l4.49 1.5a1 1 0 0 1 .68.95V19a2 2 0 0 1-2 2h-1C9.72 21 3 14.28 3 6V5z",
  },
  {
    title: "Google Sheets & CSV",
    text: "Export to a new or existing sheet, into any tab, or download a CSV in one click.",
    icon: "M9 17v-2m3 2v-4m3 4v-6m2 10H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h5.59a1 1 0 0 1 .7.29l5.42 5.42a1 1 0 0 1 .29.7V19a2 2 0 0 1-2 2z",
  },
  {
    title: "Private by design",
    text: "Bring your own key. We never store lead data: the leads you find are yours alone.",
    icon: "M12 15v2m-6 4h12a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2zm10-10V7a4 4 0 0 0-8 0v4h8z",
  },
];

const FAQ: FaqItem[] = [
  {
    question: "Do I need my own Google Places API key?",
    answer:
      "Yes. You bring your own key, so searches run on your Google Cloud account and you stay in control of cost and quota. Setup takes about 2 minutes and our onboarding walks you through it.",
  },
  {
    question: "How much does the Google Places API cost?",
    answer:
      "Google gives new accounts a $300 free credit, enough for about 60,000 searches. After that it costs roughly $17 per 1,000 places. You can set a daily limit in your Google Cloud dashboard so you are never surprised.",
  },
  {
    question: "How many leads can I generate?",
    answer:
      "Searches are unlimited on the Pro plan, subject to fair usage, with a cap of 1,000 leads per day to keep your key healthy.",
  },
  {
    question: "Do you store my leads?",
    answer:
      "No. Lead data is never stored on our servers. Results stream straight to your browser and go wherever you export them. You own your leads.",
  },
  {
    question: "Is my API key safe?",
    answer:
      "Your key is encrypted before it is stored and is only ever shown back to you as a masked preview.",
  },
  {
    question: "What if it does not work for me?",
    answer:
      "We guarantee 6,000 qualified leads in 60 days for $58. If you do not get them, we refund you. You can also cancel anytime.",
  },
];

/** The public landing page (spec section 2), sections in the spec's order. */
export function LandingPage() {
  const { isAuthenticated, isLoading, login } = useAuth();
  // The spec's figures unless the operator set their own, or none (`GET /api/site`).
  const site = useSiteConfig();
  const [demoOpen, setDemoOpen] = useState(false);

  const primaryCta = isAuthenticated ? (
    <Link to="/dashboard" className={buttonClasses("primary", "lg")}>
      Go to Dashboard
    </Link>
  ) : (
    <Button size="lg" onClick={login} disabled={isLoading}>
      Start free — no credit card
    </Button>
  );

  return (
    <div className="min-h-screen bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <LandingHeader />
      <main id="main">
        {/* Hero */}
        <section
          aria-labelledby="hero-title"
          className="relative overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white"
        >
          <div className="mx-auto max-w-7xl px-4 pt-16 pb-20 sm:px-6 sm:pt-24 lg:px-8">
            <div className="mx-auto max-w-3xl text-center">
              <p className="inline-flex items-center gap-2 rounded-full bg-indigo-100 px-3 py-1 text-sm font-medium text-indigo-800">
                <span
                  className="size-2 rounded-full bg-green-500"
                  aria-hidden="true"
                />
                Live results, straight from Google Places
              </p>
              <h1
                id="hero-title"
                className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl"
              >
                Find local business leads{" "}
                <span className="text-indigo-600">in minutes</span>, not days
              </h1>
              <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
                Pick a business type and a location. Leadgen streams every
                matching business with phone, website, rating and reviews, ready
                for Google Sheets or CSV.
              </p>
              <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
                {primaryCta}
                <a href="#demo" className={buttonClasses("secondary", "lg")}>
                  Watch the demo
                </a>
              </div>
              {!isAuthenticated && <LocalModeNote className="mt-3" />}
              <p className="mt-4 text-sm text-slate-500">
                Free to start · Set up in about 2 minutes · Cancel anytime
              </p>
            </div>
            {site.marketingFigures.length > 0 && (
              <dl className="mx-auto mt-16 grid max-w-3xl grid-cols-3 gap-4 text-center">
                {site.marketingFigures.map((stat) => (
                  <div
                    key={stat.label}
                    className="flex flex-col-reverse rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
                  >
                    <dt className="mt-1 text-xs text-slate-500 sm:text-sm">
                      {stat.label}
                    </dt>
                    <dd className="text-2xl font-bold text-slate-900 sm:text-3xl">
                      {stat.value}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </div>
        </section>

        {/* How it works */}
        <section
          id="how-it-works"
          aria-labelledby="how-title"
          className="py-20 sm:py-28"
        >
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-2xl text-center">
              <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">
                How it works
              </p>
              <h2
                id="how-title"
                className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
              >
                From sign-in to spreadsheet in four steps
              </h2>
            </div>
            <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {STEPS.map((step, index) => (
                <li
                  key={step.title}
                  className="relative rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
                >
                  <span className="flex size-10 items-center justify-center rounded-full bg-indigo-600 text-base font-bold text-white">
                    {index + 1}
                  </span>
                  <h3 className="mt-4 text-lg font-semibold text-slate-900">
                    {step.title}
                  </h3>
                  <p className="mt-2 text-sm text-slate-600">{step.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        {/* Features */}
        <section
          id="features"
          aria-labelledby="features-title"
          className="bg-slate-50 py-20 sm:py-28"
        >
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-2xl text-center">
              <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">
                Features
              </p>
              <h2
                id="features-title"
                className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
              >
                Everything an agency needs to prospect locally
              </h2>
            </div>
            <div className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {FEATURES.map((feature) => (
                <div
                  key={feature.title}
                  className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
                >
                  <span className="flex size-11 items-center justify-center rounded-xl bg-indigo-100 text-indigo-700">
                    <svg
                      aria-hidden="true"
                      viewBox="0 0 24 24"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth={2}
                      className="size-6"
                    >
                      <path
                        strokeLinecap="round"
                        strokeLinejoin="round"
                        d={feature.icon}
                      />
                    </svg>
                  </span>
                  <h3 className="mt-4 text-lg font-semibold text-slate-900">
                    {feature.title}
                  </h3>
                  <p className="mt-2 text-sm text-slate-600">{feature.text}</p>
                </div>
              ))}
            </div>
          </div>
        </section>

        {/* Demo */}
        <section
          id="demo"
          aria-labelledby="demo-title"
          className="py-20 sm:py-28"
        >
          <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-2xl text-center">
              <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">
                Demo
              </p>
              <h2
                id="demo-title"
                className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
              >
                See 100 leads arrive in under a minute
              </h2>
            </div>
            {/* The poster's sample rows sit beside the button, not in it: the button's name
                ("Play the product demo video") must contain any text it shows. */}
            <div className="relative mt-12 aspect-video w-full overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 via-indigo-700 to-slate-900 shadow-2xl">
              <DemoPoster />
              <button
                type="button"
                onClick={() => setDemoOpen(true)}
                className="group absolute inset-0 flex items-center justify-center rounded-3xl"
                aria-label="Play the product demo video"
              >
                <span className="flex size-20 items-center justify-center rounded-full bg-white/95 text-indigo-700 shadow-xl transition-transform group-hover:scale-110">
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    fill="currentColor"
                    className="ml-1 size-9"
                  >
                    <path d="M8 5v14l11-7z" />
                  </svg>
                </span>
              </button>
            </div>
            <VideoModal
              open={demoOpen}
              onClose={() => setDemoOpen(false)}
              title="Leadgen product demo"
            />
          </div>
        </section>

        <PricingSection />

        {/* FAQ */}
        <section
          id="faq"
          aria-labelledby="faq-title"
          className="py-20 sm:py-28"
        >
          <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
            <div className="text-center">
              <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">
                FAQ
              </p>
              <h2
                id="faq-title"
                className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
              >
                Frequently asked questions
              </h2>
            </div>
            <div className="mt-12">
              <FaqAccordion items={FAQ} />
            </div>
          </div>
        </section>

        {/* Closing call to action */}
        <section aria-labelledby="cta-title" className="bg-indigo-700">
          <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
            <h2
              id="cta-title"
              className="text-3xl font-bold tracking-tight text-white sm:text-4xl"
            >
              Your next 1,000 clients are already on the map
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-lg text-indigo-100">
              Join 500+ agencies filling their pipeline with Leadgen. Start
              free, no credit card required.
            </p>
            <div className="mt-8 flex flex-col items-center gap-3">
              {isAuthenticated ? (
                <Link to="/dashboard" className={buttonClasses("light", "lg")}>
                  Go to Dashboard
                </Link>
              ) : (
                <Button
                  variant="light"
                  size="lg"
                  onClick={login}
                  disabled={isLoading}
                >
                  Get started for free
                </Button>
              )}
              {!isAuthenticated && <LocalModeNote light />}
            </div>
          </div>
        </section>
      </main>
      <LandingFooter />
    </div>
  );
}

/** A drawn dashboard preview used as the demo poster (no image download needed). */
function DemoPoster() {
  const rows = [
    "Bella Napoli Trattoria",
    "The Copper Kettle Café",
    "Sunrise Dental Studio",
    "Harbor Street Fitness",
    "Greenleaf Plumbing Co.",
  ];
  return (
    <div aria-hidden="true" className="absolute inset-0 p-4 opacity-60 sm:p-10">
      <div className="h-full rounded-2xl bg-white/10 p-4 ring-1 ring-white/20 sm:p-6">
        <div className="flex gap-3">
          <div className="h-3 w-24 rounded bg-white/60 sm:h-4 sm:w-40" />
          <div className="h-3 w-16 rounded bg-white/30 sm:h-4 sm:w-24" />
        </div>
        <ul className="mt-4 space-y-2 sm:mt-6 sm:space-y-3">
          {rows.map((row) => (
            <li
              key={row}
              className="flex items-center justify-between rounded-lg bg-white/15 px-3 py-1.5 text-left text-[10px] text-white sm:py-2.5 sm:text-sm"
            >
              <span>{row}</span>
              <span className="hidden text-white/70 sm:inline">
                ★ 4.{row.length % 10}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
