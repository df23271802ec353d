import { useSiteConfig } from "../../lib/site-config";
import { LegalLayout } from "./legal-layout";

/** How long results stay in memory for reconnecting (`LEADGEN_RESULTS_REPLAY_MINUTES`' default). */
export const RESULTS_REPLAY_MINUTES = 10;

/** Privacy policy (spec sections 1, 2 and 9). Placeholders are left unfilled on purpose. */
export function PrivacyPage() {
  // The operator's address and support email once set (`GET /api/site`), else the spec's.
  const site = useSiteConfig();
  return (
    <LegalLayout title="Privacy Policy">
      <section>
        <h2>1. Who we are</h2>
        <p>
          {site.legalEntity} ("we", "us") provides a web application that helps
          agencies and sales professionals find local business leads using their
          own Google Places API key. Our business address is{" "}
          {site.businessAddress}.
        </p>
      </section>
      <section>
        <h2>2. Information we collect</h2>
        <ul>
          <li>
            Account information from your identity provider when you sign in:
            your name, email address and profile picture.
          </li>
          <li>
            Your Google Places API key, which you provide and which we store
            encrypted.
          </li>
          <li>
            Usage logs: the number and time of searches and technical request
            data, used to operate and secure the service.
          </li>
          <li>
            If you connect Google Sheets, an authorization token that lets us
            write exports to sheets you choose.
          </li>
        </ul>
      </section>
      <section>
        <h2>3. What we never store</h2>
        <p>
          Lead data is never stored. Search results are streamed directly to
          your browser and to the destinations you choose (for example Google
          Sheets or a CSV file). You own your leads.
        </p>
        <p>
          So that a dropped connection or a reloaded page loses nothing, a
          search's results are held in the memory of our servers (our Redis
          event server, or the Leadgen process itself when it runs on its own)
          for {RESULTS_REPLAY_MINUTES} minutes after the search's last result,
          then deleted. They are never written to a database, a disk or a log.
          Your search history keeps only what you searched for, when, how many
          results it had and what it cost: never the businesses found.
        </p>
        <p>
          Place memory: so that a search can leave out the businesses your
          workspace has already found or exported, we keep, for each
          workspace, the Google place IDs its searches sent and its exports
          held, with when each was first seen, last seen and last exported.
          Nothing else about a business is kept: no name, address, phone
          number, website or rating. Google's terms allow place IDs to be
          kept indefinitely, as they identify a place without describing it.
          An estimate of a full search also keeps, for 15 minutes, the place
          IDs its free probes listed, so that the search that follows does not
          ask Google for them again.
          A workspace admin can turn the place memory off (nothing more is
          recorded) or make it forget everything at any time.
        </p>
      </section>
      <section>
        <h2>4. How we protect your API key</h2>
        <p>
          API keys are stored encrypted and are only ever shown back to you as a
          masked preview. Your key is used only to run the searches you start.
        </p>
      </section>
      <section>
        <h2>5. Retention</h2>
        <ul>
          <li>Usage logs are kept for 12 months.</li>
          <li>
            Account data is deleted within 30 days of the deletion of your
            account.
          </li>
        </ul>
      </section>
      <section>
        <h2>6. Sharing</h2>
        <p>
          We do not sell your personal information. We share data only with the
          providers needed to run the service (hosting, sign-in, payments) and
          when required by law.
        </p>
      </section>
      <section>
        <h2>7. Your rights</h2>
        <p>
          You can request access to, correction of, or deletion of your personal
          data at any time by writing to{" "}
          <a
            href={`mailto:${site.supportEmail}`}
            className="text-indigo-700 underline"
          >
            {site.supportEmail}
          </a>
          .
        </p>
      </section>
      <section>
        <h2>8. Children</h2>
        <p>
          The service is not directed to anyone under 18. You must be at least
          18 years old to use Leadgen.
        </p>
      </section>
      <section>
        <h2>9. Contact</h2>
        <p>
          Questions about this policy:{" "}
          <a
            href={`mailto:${site.supportEmail}`}
            className="text-indigo-700 underline"
          >
            {site.supportEmail}
          </a>
          ,{site.businessAddress}.
        </p>
      </section>
    </LegalLayout>
  );
}
