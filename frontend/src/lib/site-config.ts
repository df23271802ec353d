import { useGetSiteConfig } from "../api/gen/site/site";
import type { SiteConfig } from "../api/gen/model/siteConfig";

/**
 * The product spec's placeholders (sections 2 and 11), shown until the server's
 * `GET /api/site` answers, and whenever it cannot: an operator's own values replace them
 * (issue #26 item 10; the settings are in docs/operations.md).
 */
export const SPEC_SITE: SiteConfig = {
  supportEmail: "support@leadgen.app",
  helpCenterUrl: null,
  liveChatUrl: null,
  legalEntity: "Leadgen",
  businessAddress: "[Business Address]",
  jurisdiction: "[Jurisdiction]",
  arbitrationRules: "[Arbitration Rules]",
  marketingFigures: [
    { value: "2.3M+", label: "Leads generated" },
    { value: "500+", label: "Agencies" },
    { value: "99.9%", label: "Uptime" },
  ],
  // The server's default (LEADGEN_MAP_STYLE_URL unset), which its CSP lets through.
  mapStyleUrl: "https://tiles.openfreemap.org/styles/liberty",
};

/** What the public pages say of the operator: the server's, else the spec's. Read once per page load. */
export function useSiteConfig(): SiteConfig {
  return (
    useGetSiteConfig({ query: { staleTime: Infinity, retry: false } }).data ??
    SPEC_SITE
  );
}
