import { useSiteConfig } from "../../lib/site-config";
import { LegalLayout } from "./legal-layout";

/**
 * Terms of service (spec sections 1, 2 and 9). The spec's placeholders stay until the
 * operator sets their entity, address, jurisdiction and arbitration rules (`GET /api/site`).
 */
export function TermsPage() {
  const site = useSiteConfig();
  return (
    <LegalLayout title="Terms of Service">
      <section>
        <h2>1. Acceptance</h2>
        <p>
          By creating an account or using Leadgen you agree to these terms. If
          you do not agree, do not use the service.
        </p>
      </section>
      <section>
        <h2>2. Eligibility</h2>
        <p>
          You must be at least 18 years old and able to form a binding contract
          to use Leadgen.
        </p>
      </section>
      <section>
        <h2>3. Your account and API key</h2>
        <p>
          Accounts are created only through our identity provider sign-in. You
          are responsible for your Google Places API key, for its usage and for
          any charges Google makes for it. API keys are stored encrypted.
        </p>
      </section>
      <section>
        <h2>4. Plans and usage limits</h2>
        <p>
          There is currently a free tier with usage limits. Paid plans may be
          introduced later; if they are, their prices and limits will be shown
          before you subscribe.
        </p>
      </section>
      <section>
        <h2>5. Your data and your leads</h2>
        <p>
          Lead data is never stored by Leadgen. You own the leads you generate
          and are responsible for using them in line with applicable law,
          including anti-spam and data-protection rules.
        </p>
      </section>
      <section>
        <h2>6. Acceptable use</h2>
        <ul>
          <li>
            Do not use the service to break the law or the Google Maps Platform
            terms.
          </li>
          <li>
            Do not attempt to disrupt, overload or reverse-engineer the service.
          </li>
          <li>
            Do not resell access to the service without our written permission.
          </li>
        </ul>
      </section>
      <section>
        <h2>7. Liability</h2>
        <p>
          To the fullest extent permitted by law, our total liability for any
          claim is limited to the amounts you paid us in the 12 months before
          the claim.
        </p>
      </section>
      <section>
        <h2>8. Governing law and disputes</h2>
        <p>
          These terms are governed by the laws of {site.jurisdiction}. Disputes
          will be resolved by binding arbitration under {site.arbitrationRules}.
        </p>
      </section>
      <section>
        <h2>9. Contact</h2>
        <p>
          {site.legalEntity}, {site.businessAddress}. Email:{" "}
          <a
            href={`mailto:${site.supportEmail}`}
            className="text-indigo-700 underline"
          >
            {site.supportEmail}
          </a>
          .
        </p>
      </section>
    </LegalLayout>
  );
}
