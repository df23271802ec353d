import { describe, expect, it } from 'vitest';
import { webHref } from './web-url';

describe('webHref', () => {
  it('keeps http and https URLs', () => {
    expect(webHref('https://joes.example/')).toBe('https://joes.example/');
    expect(webHref('http://joes.example/menu?a=1')).toBe('http://joes.example/menu?a=1');
    expect(webHref('HTTPS://JOES.EXAMPLE')).toBe('HTTPS://JOES.EXAMPLE');
  });

  it.each(['javascript:alert(1)', ' javascript:alert(1)', '\tjava\nscript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://x.example/'])(
    'refuses %j',
    (url) => {
      expect(webHref(url)).toBeNull();
    },
  );

  it('refuses what is not an absolute URL, and nothing', () => {
    expect(webHref('joes.example')).toBeNull();
    expect(webHref('/relative')).toBeNull();
    expect(webHref('')).toBeNull();
    expect(webHref(null)).toBeNull();
    expect(webHref(undefined)).toBeNull();
  });
});
