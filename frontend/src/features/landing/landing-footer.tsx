import { Link } from "@tanstack/react-router";
import { Logo } from "../../components/ui/logo";
import { useSiteConfig } from "../../lib/site-config";

const linkClass = "text-sm text-slate-400 hover:text-white";

/** Footer: legal links, placeholder anchors and support mail (spec section 2). */
export function LandingFooter() {
  // The operator's support address, Help Center and name once set (`GET /api/site`).
  const site = useSiteConfig();
  return (
    <footer
      className="bg-slate-950 text-slate-300"
      aria-labelledby="footer-heading"
    >
      <h2 id="footer-heading" className="sr-only">
        Footer
      </h2>
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <div className="grid gap-10 md:grid-cols-5">
          <div className="md:col-span-2">
            <Logo light />
            <p className="mt-4 max-w-xs text-sm text-slate-400">
              Real-time local business leads for agencies and sales teams. Your
              key, your data, your leads.
            </p>
            <div className="mt-5 flex gap-3">
              {[
                { href: "#twitter", label: "Leadgen on X" },
                { href: "#linkedin", label: "Leadgen on LinkedIn" },
                { href: "#youtube", label: "Leadgen on YouTube" },
              ].map((social) => (
                <a
                  key={social.href}
                  href={social.href}
                  aria-label={social.label}
                  className="rounded-full bg-slate-800 p-2 text-slate-300 hover:bg-slate-700 hover:text-white"
                >
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    fill="currentColor"
                    className="size-4"
                  >
                    <circle cx="12" cy="12" r="5" />
                  </svg>
                </a>
              ))}
            </div>
          </div>
          <nav aria-label="Product">
            <h3 className="text-sm font-semibold text-white">Product</h3>
            <ul className="mt-4 space-y-3">
              <li>
                <a href="#features" className={linkClass}>
                  Features
                </a>
              </li>
              <li>
                <a href="#pricing" className={linkClass}>
                  Pricing
                </a>
              </li>
              <li>
                <a href="#api" className={linkClass}>
                  API
                </a>
              </li>
              <li>
                <a href="#status" className={linkClass}>
                  Status
                </a>
              </li>
            </ul>
          </nav>
          <nav aria-label="Support">
            <h3 className="text-sm font-semibold text-white">Support</h3>
            <ul className="mt-4 space-y-3">
              <li>
                <a href={site.helpCenterUrl ?? "#help"} className={linkClass}>
                  Help Center
                </a>
              </li>
              <li>
                <a href="#docs" className={linkClass}>
                  Documentation
                </a>
              </li>
              <li>
                <a href={`mailto:${site.supportEmail}`} className={linkClass}>
                  Contact support
                </a>
              </li>
              <li>
                <a
                  href={`mailto:${site.supportEmail}?subject=Sales`}
                  className={linkClass}
                >
                  Talk to sales
                </a>
              </li>
            </ul>
          </nav>
          <nav aria-label="Legal">
            <h3 className="text-sm font-semibold text-white">Legal</h3>
            <ul className="mt-4 space-y-3">
              <li>
                <Link to="/privacy" className={linkClass}>
                  Privacy Policy
                </Link>
              </li>
              <li>
                <Link to="/terms" className={linkClass}>
                  Terms of Service
                </Link>
              </li>
              <li>
                <a href="#cookies" className={linkClass}>
                  Cookie Policy
                </a>
              </li>
              <li>
                <a href="#gdpr" className={linkClass}>
                  GDPR
                </a>
              </li>
            </ul>
          </nav>
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t border-slate-800 pt-8 text-xs text-slate-400 sm:flex-row sm:justify-between">
          <p>
            © {new Date().getFullYear()} {site.legalEntity}. All rights
            reserved.
          </p>
          <p>
            Questions?{" "}
            <a
              href={`mailto:${site.supportEmail}`}
              className="hover:text-white"
            >
              {site.supportEmail}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
