import type { ReactNode } from 'react';
import { webHref } from '../lib/web-url';

export interface ExternalLinkProps {
  /** A URL from lead data (untrusted). */
  url: string;
  className?: string;
  /** The link text; the URL itself when absent. */
  children?: ReactNode;
  /** Classes for the text shown instead when the URL is not http(s). */
  textClassName?: string;
}

/**
 * A link to a lead's URL, opened in a new tab, when its scheme is http or https; any
 * other URL (`javascript:alert(1)`) is shown as plain text, never as a link (issue #25
 * item 10).
 */
export function ExternalLink({ url, className, children, textClassName }: ExternalLinkProps) {
  const href = webHref(url);
  if (!href) return <span className={textClassName}>{url}</span>;
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" className={className}>
      {children ?? url}
    </a>
  );
}
