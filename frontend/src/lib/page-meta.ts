import { useEffect } from 'react';

/** What search engines see of a public page. */
export interface PublicPageMeta {
  title: string;
  description: string;
}

/**
 * The public pages (the server lists the same ones in /sitemap.xml and sends
 * `X-Robots-Tag: noindex` for every other path: api/src/web.rs). Each has its own title,
 * description and canonical address; every other page is the signed-in app, `noindex`.
 */
export const PUBLIC_PAGES: Record<string, PublicPageMeta> = {
  '/': {
    title: 'Leadgen – Local business leads in minutes',
    description:
      'Leadgen finds local business leads in real time with your own Google Places API key. Export to Google Sheets or CSV.',
  },
  '/privacy': {
    title: 'Privacy Policy – Leadgen',
    description:
      'What Leadgen collects and what it never stores: leads exist only in flight, and your Google API key is encrypted at rest. Retention, sharing and your rights.',
  },
  '/terms': {
    title: 'Terms of Service – Leadgen',
    description:
      'The terms of using Leadgen: your account and Google API key, plans and usage limits, your data and your leads, acceptable use and liability.',
  },
};

/** The title of every other page: the app's name. */
const APP_TITLE = 'Leadgen';

function headElement<K extends 'meta' | 'link'>(tag: K, key: string, value: string): HTMLElementTagNameMap[K] {
  const attribute = tag === 'meta' ? 'name' : 'rel';
  let element = document.head.querySelector<HTMLElementTagNameMap[K]>(`${tag}[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement(tag);
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.setAttribute(tag === 'meta' ? 'content' : 'href', value);
  return element;
}

function removeHeadElement(selector: string) {
  document.head.querySelector(selector)?.remove();
}

/** Sets the document's title, description, canonical link and robots directive for `pathname`. */
export function applyPageMeta(pathname: string) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const page = PUBLIC_PAGES[path];
  if (page) {
    document.title = page.title;
    headElement('meta', 'description', page.description);
    headElement('link', 'canonical', `${window.location.origin}${path}`);
    removeHeadElement('meta[name="robots"]');
  } else {
    document.title = APP_TITLE;
    removeHeadElement('link[rel="canonical"]');
    headElement('meta', 'robots', 'noindex');
  }
}

/** Keeps the document's head in step with the current path. */
export function usePageMeta(pathname: string) {
  useEffect(() => applyPageMeta(pathname), [pathname]);
}
