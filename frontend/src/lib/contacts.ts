import type { ContactsItem } from '../api/gen/model/contactsItem';
import { NotReadReason } from '../api/gen/model/notReadReason';
import { ReadStatus } from '../api/gen/model/readStatus';

/** Whether `value` is one of a generated enum's words. */
function isOneOf<T extends string>(words: Record<string, T>, value: unknown): value is T {
  return typeof value === 'string' && (Object.values(words) as string[]).includes(value);
}

/** What a lead's own website publishes (an enriched search, issue #14): the API's `ContactsItem`. */
export type Contacts = ContactsItem;

/** The columns an enriched search's exports add after the usual ones, in order. */
export const CONTACT_COLUMNS = ['Email', 'Facebook', 'Instagram', 'LinkedIn', 'X', 'YouTube', 'TikTok', 'Website read'] as const;

/** Why a website was not read, in words (the API's `reason`). */
const NOT_READ_WORDS: Record<NotReadReason, string> = {
  timed_out: 'timed out',
  robots_txt: 'its robots.txt does not allow it',
  refused_address: 'its address is not allowed',
  site_down: 'site down',
  not_a_web_address: 'not a web address',
  not_reached_in_time: 'not reached in time',
};

/**
 * How reading a lead's website went, in words (issue #26: a lead says found, none found
 * or why not): `Found`, `None found`, `Not read: timed out`, `No website`; empty when the
 * API said nothing (a search without enrichment).
 */
export function readStatusWords(contacts: Contacts | null | undefined): string {
  switch (contacts?.status) {
    case 'found':
      return 'Found';
    case 'none':
      return 'None found';
    case 'no_website':
      return 'No website';
    case 'not_read':
      return `Not read: ${contacts.reason ? NOT_READ_WORDS[contacts.reason] : 'unknown reason'}`;
    default:
      return '';
  }
}

/** The social networks, in {@link CONTACT_COLUMNS}' order, with a short label for the results table. */
export const SOCIAL_NETWORKS = [
  { key: 'facebook', label: 'Facebook' },
  { key: 'instagram', label: 'Instagram' },
  { key: 'linkedin', label: 'LinkedIn' },
  { key: 'x', label: 'X' },
  { key: 'youtube', label: 'YouTube' },
  { key: 'tiktok', label: 'TikTok' },
] as const;

/**
 * The cells of {@link CONTACT_COLUMNS} for one lead: its emails in one cell
 * (comma-separated, as a mail client takes them), then one profile URL per network;
 * empty cells when nothing was found.
 */
export function contactCells(contacts: Contacts | null | undefined): string[] {
  const socials = contacts?.socials;
  return [
    (contacts?.emails ?? []).join(', '),
    ...SOCIAL_NETWORKS.map(({ key }) => socials?.[key] ?? ''),
    readStatusWords(contacts),
  ];
}

const url = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** The contacts of an untrusted `lead_enriched` event (or a lead's `contacts`), or null when it has none. */
export function toContacts(data: unknown): Contacts | null {
  if (typeof data !== 'object' || data === null) return null;
  const event = data as { emails?: unknown; socials?: unknown; contactPage?: unknown; status?: unknown; reason?: unknown };
  if (!Array.isArray(event.emails)) return null;
  const socials = (typeof event.socials === 'object' && event.socials !== null ? event.socials : {}) as Record<string, unknown>;
  const contacts: Contacts = {
    emails: event.emails.filter((e): e is string => typeof e === 'string' && e.length > 0),
    socials: Object.fromEntries(SOCIAL_NETWORKS.flatMap(({ key }) => (url(socials[key]) ? [[key, url(socials[key])]] : []))),
  };
  const page = url(event.contactPage);
  if (page) contacts.contactPage = page;
  if (isOneOf(ReadStatus, event.status)) contacts.status = event.status;
  if (isOneOf(NotReadReason, event.reason)) contacts.reason = event.reason;
  return contacts;
}
