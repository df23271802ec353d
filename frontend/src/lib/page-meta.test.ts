import { applyPageMeta, PUBLIC_PAGES } from './page-meta';

const head = (selector: string) => document.head.querySelector(selector);

describe('applyPageMeta', () => {
  it('gives each public page its title, description and canonical address', () => {
    for (const [path, meta] of Object.entries(PUBLIC_PAGES)) {
      applyPageMeta(path);
      expect(document.title).toBe(meta.title);
      expect(head('meta[name="description"]')?.getAttribute('content')).toBe(meta.description);
      expect(head('link[rel="canonical"]')?.getAttribute('href')).toBe(`${window.location.origin}${path}`);
      expect(head('meta[name="robots"]')).toBeNull();
    }
  });

  it('marks app pages noindex, without a canonical address', () => {
    applyPageMeta('/privacy/');
    expect(head('link[rel="canonical"]')?.getAttribute('href')).toBe(`${window.location.origin}/privacy`);
    applyPageMeta('/dashboard');
    expect(head('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(head('link[rel="canonical"]')).toBeNull();
    expect(document.title).toBe('Leadgen');
    applyPageMeta('/');
    expect(head('meta[name="robots"]')).toBeNull();
  });
});
