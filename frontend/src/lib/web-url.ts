// Lead data comes from the web: Google's listing (a business's website) and, for an
// enriched search, what the business's own pages link to (social profiles). A URL with
// another scheme (`javascript:`, `data:`, `vbscript:`...) must never become a link the
// user can click (issue #25 item 10).

/**
 * `url` when it is an absolute `http:` or `https:` URL (to use as a link's `href`),
 * otherwise null: show it as text. The URL parser is the browser's, so what passes here
 * is what a click would open (leading spaces or tabs in `javascript:` do not hide it).
 */
export function webHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
