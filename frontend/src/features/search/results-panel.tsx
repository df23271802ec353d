import { useVirtualizer, measureElement as measureFromEntry } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { CostItem } from '../../api/gen/model/costItem';
import type { SearchCompleteness } from '../../api/gen/model/searchCompleteness';
import { ExternalLink } from '../../components/external-link';
import { Card } from '../../components/ui/card';
import { useFocusOnArrival } from '../../hooks/use-focus-on-arrival';
import { useMediaQuery } from '../../hooks/use-media-query';
import { readStatusWords, SOCIAL_NETWORKS, type Contacts } from '../../lib/contacts';
import { googleMapsUrl } from '../../lib/google-maps';
import type { Lead } from '../../lib/lead';
import { filterLeads, isFiltering, nextSort, NO_FILTER, searchableText, SORT_LABELS, sortLeads, type LeadFilter, type LeadSort, type SortKey } from './lead-view';
import { ResultsControls } from './results-controls';
import { completenessText, costText } from './search-format';

/** Up to this many leads every row is in the page (a quick search has at most 60). */
export const VIRTUALIZE_ABOVE = 100;
/** Rows rendered past each edge of the visible window. */
const OVERSCAN = 12;
/** First guesses, in pixels, until a row is measured. */
const ROW_ESTIMATE = 45;
const CARD_ESTIMATE = 104;

export interface ResultsPanelProps {
  results: Lead[];
  typeLabel: string;
  location: string;
  /** Export controls, supplied by the page (the export feature). */
  actions?: ReactNode;
  /** A banner above the table (export outcome). */
  notice?: ReactNode;
  /** What the search cost the user's Google key. */
  cost?: CostItem | null;
  /** Found of Google's count of the area (the completeness meter), when it counted. */
  completeness?: SearchCompleteness | null;
  /** The search read its leads' websites: an Email and a Profiles column (issue #14). */
  enriched?: boolean;
  /** The filters the search was run with, in words (chips above the results). */
  searchFilters?: readonly string[];
  /** Take the focus to the heading on arrival (a search just finished). */
  focusOnArrival?: boolean;
  /** How long the server keeps the results (minutes), when known: said above them. */
  keptMinutes?: number;
  /**
   * The search is still running: `results` are the leads streamed so far, and the table
   * fills as more arrive (issue #26 item 6). Sorting and filters work meanwhile.
   */
  live?: boolean;
  /**
   * A search with an `exclude` (issue #29 item 7): how many of the matches found were new.
   * Every lead it sent is new, so each is marked "New".
   */
  newOfFound?: { newCount: number; foundCount: number } | null;
}

/** Each lead's filter text, computed once per lead object (a running search re-renders often). */
const haystackCache = new WeakMap<Lead, string>();
function haystackOf(lead: Lead): string {
  let text = haystackCache.get(lead);
  if (text === undefined) {
    text = searchableText(lead);
    haystackCache.set(lead, text);
  }
  return text;
}

function websiteHost(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** A lead's website: its host as a link, or (not http or https) the text as it came. */
function Website({ url }: { url: string }) {
  return (
    <ExternalLink url={url} className="text-indigo-700 hover:underline" textClassName="break-all text-slate-600">
      {websiteHost(url)}
    </ExternalLink>
  );
}

/** "Found N of about M <type>s here, by Google's count", when Google counted the area. */
function CompletenessLine({ completeness, typeLabel }: { completeness?: SearchCompleteness | null; typeLabel: string }) {
  return completeness ? <p className="mt-1 text-sm text-slate-700">{completenessText(completeness, typeLabel)}</p> : null;
}

/** "This search cost $X on your Google key (N billable requests)", when the server said. */
function CostLine({ cost }: { cost?: CostItem | null }) {
  return cost ? <p className="mt-1 text-xs text-slate-500">{costText(cost)}</p> : null;
}

/**
 * The finished search: 'No results found' or the leads with export buttons. Above
 * {@link VIRTUALIZE_ABOVE} leads only the rows in view (and a margin) are in the page,
 * so a full search's thousands stay smooth; the table still tells assistive technology
 * how many rows there are (aria-rowcount, aria-rowindex).
 */
export function ResultsPanel({
  results,
  typeLabel,
  location,
  actions,
  notice,
  cost,
  completeness,
  enriched = false,
  searchFilters = [],
  focusOnArrival = false,
  keptMinutes,
  live = false,
  newOfFound = null,
}: ResultsPanelProps) {
  const allNew = newOfFound !== null;
  // Wide screens get the table, phones one card per lead (Tailwind's `md`).
  const wide = useMediaQuery('(min-width: 48rem)', true);
  const [sort, setSort] = useState<LeadSort>(null);
  const [filter, setFilter] = useState<LeadFilter>(NO_FILTER);
  // Typing stays responsive with thousands of leads: the list follows a moment later.
  const viewFilter = useDeferredValue(filter);
  // Once per lead, not once per lead per frame while a search streams.
  const haystacks = useMemo(() => results.map(haystackOf), [results]);
  const shown = useMemo(
    () => sortLeads(isFiltering(viewFilter) ? filterLeads(results, viewFilter, haystacks) : results, sort),
    [results, viewFilter, haystacks, sort],
  );
  // What the rows are ordered and filtered by: a change takes the list back to the top;
  // leads arriving (a running search) do not.
  const view = useMemo(() => ({ sort, filter: viewFilter }), [sort, viewFilter]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useFocusOnArrival(headingRef, focusOnArrival);

  if (results.length === 0 && live) return null;
  if (results.length === 0) {
    return (
      <Card className="text-center">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          No results found
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          No {typeLabel.toLowerCase()} businesses were found in {location}. Try a nearby city or a broader business type.
        </p>
        <SearchFilterChips labels={searchFilters} centred />
        {newOfFound && <p className="mt-1 text-sm font-medium text-slate-800">{newOfFoundText(newOfFound)}</p>}
        <CostLine cost={cost} />
      </Card>
    );
  }

  const count = `${results.length.toLocaleString('en-US')} ${results.length === 1 ? 'lead' : 'leads'}`;
  return (
    <Card padded={false} className="overflow-hidden">
      <div className="flex flex-col gap-4 border-b border-slate-200 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          {!live && (
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-700">
              <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} className="size-5">
                <path strokeLinecap="round" strokeLinejoin="round" d="M5 13l4 4L19 7" />
              </svg>
            </span>
          )}
          <div>
            <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
              {live ? 'Leads so far: ' : 'Found '}
              {count}
              {searchFilters.length > 0 && ' matching your filters'}
            </h2>
            <p className="text-sm text-slate-600">
              {typeLabel} in {location}
            </p>
            <SearchFilterChips labels={searchFilters} />
            {newOfFound && <p className="mt-1 text-sm font-medium text-slate-800">{newOfFoundText(newOfFound)}</p>}
            <CompletenessLine completeness={completeness} typeLabel={typeLabel} />
            <CostLine cost={cost} />
            {!live && keptMinutes != null && keptMinutes > 0 && (
              <p className="mt-1 text-sm font-medium text-amber-800">
                Results are kept for {keptMinutes} {keptMinutes === 1 ? 'minute' : 'minutes'}: export them now.
              </p>
            )}
          </div>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {notice && <div className="px-6 pt-4">{notice}</div>}
      <ResultsControls
        filter={filter}
        onFilter={setFilter}
        sort={sort}
        onSort={setSort}
        enriched={enriched}
        sortSelect={!wide}
        shown={shown.length}
        total={results.length}
      />
      {shown.length === 0 ? (
        <p className="px-6 py-10 text-center text-sm text-slate-600">No leads match these filters.</p>
      ) : wide ? (
        <LeadsTable results={shown} view={view} enriched={enriched} allNew={allNew} sort={sort} onSort={(key) => setSort((current) => nextSort(current, key))} />
      ) : (
        <LeadCards results={shown} view={view} enriched={enriched} allNew={allNew} />
      )}
    </Card>
  );
}

/** "3 new of 40 found": a search with an `exclude`, in words. */
export function newOfFoundText({ newCount, foundCount }: { newCount: number; foundCount: number }): string {
  return `${newCount.toLocaleString('en-US')} new of ${foundCount.toLocaleString('en-US')} found`;
}

/** A lead new to the workspace's place memory. */
function NewMark() {
  return <span className="ml-2 inline-block rounded-full bg-green-100 px-2 py-0.5 align-middle text-xs font-semibold text-green-800">New</span>;
}

/** The filters the search was run with (not the table's): one chip each. */
function SearchFilterChips({ labels, centred = false }: { labels: readonly string[]; centred?: boolean }) {
  if (labels.length === 0) return null;
  return (
    <ul aria-label="Search filters" className={`mt-2 flex flex-wrap gap-1.5 ${centred ? 'justify-center' : ''}`}>
      {labels.map((label) => (
        <li key={label} className="rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium text-indigo-800 ring-1 ring-indigo-200 ring-inset">
          {label}
        </li>
      ))}
    </ul>
  );
}

interface LeadWindow {
  /** Indexes of the leads to render, in order. */
  indexes: number[];
  /** Room to leave above and below them, in pixels (0 when every lead is rendered). */
  before: number;
  after: number;
  /** Attach to each rendered row (with `data-index`) so its real height is used. */
  measure: (element: Element | null) => void;
}

const noMeasure = () => {};

/**
 * The leads to render in a scroll container: all of them up to {@link VIRTUALIZE_ABOVE},
 * else the window TanStack Virtual computes from the scroll position.
 */
function useLeadWindow(results: readonly Lead[], scrollRef: RefObject<HTMLElement | null>, estimate: number): LeadWindow {
  const count = results.length;
  const virtual = count > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: virtual ? count : 0,
    getScrollElement: () => scrollRef.current,
    // Sizes follow the lead, not its position, when the view is sorted or filtered.
    getItemKey: (index) => results[index]?.placeId ?? index,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    // A row that reports no height (no layout, e.g. jsdom) keeps its estimate.
    measureElement: (element, entry, instance) => measureFromEntry(element, entry, instance) || estimate,
  });
  if (!virtual) return { indexes: Array.from({ length: count }, (_, i) => i), before: 0, after: 0, measure: noMeasure };
  const items = virtualizer.getVirtualItems();
  return { indexes: items.map((item) => item.index), ...windowSpace(items, virtualizer.getTotalSize()), measure: virtualizer.measureElement };
}

/**
 * The room to leave above and below the rendered rows: everything not rendered. With no
 * row rendered yet (the scroll box not measured, or measured 0 px high) that is the whole
 * list, so the box gets its height from it and the virtualiser then has rows to show.
 * Leaving 0 there was issue #26 item 3: the phone layout's box is sized by its content
 * alone (the table's has its header row), so it stayed 0 px high and showed nothing.
 */
export function windowSpace(items: ReadonlyArray<{ start: number; end: number }>, totalSize: number): { before: number; after: number } {
  const first = items[0];
  const last = items[items.length - 1];
  return { before: first ? first.start : 0, after: totalSize - (last ? last.end : 0) };
}

/**
 * Back at the top when the view changes (a sort, a filter: `view` is memoised on them),
 * rather than somewhere in the old order. More leads streaming in keep the place.
 */
function useTopOnChange(scrollRef: RefObject<HTMLElement | null>, view: unknown) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    scrollRef.current?.scrollTo?.({ top: 0 });
  }, [scrollRef, view]);
}

interface LeadsTableProps {
  results: Lead[];
  /** The sort and filter shown (see {@link useTopOnChange}). */
  view: unknown;
  enriched: boolean;
  /** Every lead is new to the workspace (a search with an `exclude`): each says so. */
  allNew: boolean;
  sort: LeadSort;
  onSort: (key: SortKey) => void;
}

function LeadsTable({ results, view, enriched, allNew, sort, onSort }: LeadsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { indexes, before, after, measure } = useLeadWindow(results, scrollRef, ROW_ESTIMATE);
  useTopOnChange(scrollRef, view);
  const columns = enriched ? 9 : 7;
  const header = (key: SortKey, className: string, align: 'left' | 'right' = 'left') => (
    <SortableHeader sortKey={key} sort={sort} onSort={onSort} className={className} align={align} />
  );
  return (
    <div
      ref={scrollRef}
      className="max-h-[36rem] overflow-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-inset"
      // Scrollable, so reachable by keyboard (arrow keys, Page Down).
      tabIndex={0}
      role="region"
      aria-label="Leads"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-rowcount={results.length + 1}>
        <caption className="sr-only">Leads found</caption>
        <thead className="sticky top-0 z-10 bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr aria-rowindex={1}>
            {header('name', 'px-6')}
            {header('address', 'px-4')}
            {header('phone', 'px-4')}
            {header('website', 'px-4')}
            {header('rating', 'px-4', 'right')}
            {header('reviews', 'px-4', 'right')}
            {enriched && (
              <>
                {header('email', 'px-4')}
                <th scope="col" className="px-4 py-3">Profiles</th>
              </>
            )}
            <th scope="col" className="px-6 py-3">Map</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {before > 0 && <Spacer height={before} columns={columns} />}
          {indexes.map((index) => {
            const lead = results[index];
            return (
              <tr key={lead.placeId} ref={measure} data-index={index} aria-rowindex={index + 2} className="hover:bg-slate-50">
                <td className="px-6 py-3 font-medium text-slate-900">
                  {lead.name}
                  {allNew && <NewMark />}
                </td>
                <td className="px-4 py-3 text-slate-600">{lead.address}</td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                  {lead.phone ? <a href={`tel:${lead.phone}`} className="hover:text-indigo-700 hover:underline">{lead.phone}</a> : <span className="text-slate-400">—</span>}
                </td>
                <td className="max-w-[14rem] truncate px-4 py-3">
                  {lead.website ? (
                    <Website url={lead.website} />
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                </td>
                <td className="px-4 py-3 text-right text-slate-700">{lead.rating != null ? lead.rating.toFixed(1) : '—'}</td>
                <td className="px-4 py-3 text-right text-slate-700">{lead.reviewCount ?? '—'}</td>
                {enriched && (
                  <>
                    <td className="px-4 py-3">
                      <Emails contacts={lead.contacts} />
                    </td>
                    <td className="px-4 py-3">
                      <Profiles contacts={lead.contacts} />
                    </td>
                  </>
                )}
                <td className="px-6 py-3 whitespace-nowrap">
                  <MapLink lead={lead} />
                </td>
              </tr>
            );
          })}
          {after > 0 && <Spacer height={after} columns={columns} />}
        </tbody>
      </table>
    </div>
  );
}

interface SortableHeaderProps {
  sortKey: SortKey;
  sort: LeadSort;
  onSort: (key: SortKey) => void;
  className: string;
  align: 'left' | 'right';
}

/**
 * A column header that sorts by its column: a button (Enter or Space), and `aria-sort`
 * on the header of the column the rows are sorted by.
 */
function SortableHeader({ sortKey, sort, onSort, className, align }: SortableHeaderProps) {
  const direction = sort?.key === sortKey ? sort.direction : null;
  return (
    <th scope="col" aria-sort={direction ?? undefined} className={`${className} py-2 ${align === 'right' ? 'text-right' : ''}`}>
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className={`inline-flex items-center gap-1 rounded px-1 py-1 uppercase tracking-wide hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 ${align === 'right' ? 'flex-row-reverse' : ''} ${direction ? 'text-slate-900' : ''}`}
      >
        {SORT_LABELS[sortKey]}
        <SortIcon direction={direction} />
      </button>
    </th>
  );
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | null }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={`size-3.5 ${direction ? 'text-indigo-700' : 'text-slate-400'}`}>
      {direction !== 'descending' && <path d="M10 4 6 9h8z" />}
      {direction !== 'ascending' && <path d="m10 16 4-5H6z" />}
    </svg>
  );
}

/** The lead on Google Maps (its place id opens the exact place). */
function MapLink({ lead }: { lead: Lead }) {
  return (
    <a
      href={googleMapsUrl(lead)}
      target="_blank"
      rel="noreferrer noopener"
      className="text-indigo-700 hover:underline"
      // Which lead's map, for a list of links; it starts with the visible word.
      aria-label={`Map of ${lead.name}`}
    >
      Map
    </a>
  );
}

/** The height of the rows not rendered; not a row to assistive technology. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" data-spacer="">
      <td colSpan={columns} style={{ height, padding: 0 }} />
    </tr>
  );
}

/** Phones: one card per lead. */
function LeadCards({ results, view, enriched, allNew }: { results: Lead[]; view: unknown; enriched: boolean; allNew: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { indexes, before, after, measure } = useLeadWindow(results, scrollRef, CARD_ESTIMATE);
  useTopOnChange(scrollRef, view);
  const virtual = results.length > VIRTUALIZE_ABOVE;
  return (
    <div
      ref={scrollRef}
      className={virtual ? 'max-h-[36rem] overflow-auto' : undefined}
      tabIndex={virtual ? 0 : undefined}
      role={virtual ? 'region' : undefined}
      aria-label={virtual ? 'Leads' : undefined}
    >
      <ul className="divide-y divide-slate-100" aria-label="Leads found" style={{ paddingTop: before, paddingBottom: after }}>
        {indexes.map((index) => {
          const lead = results[index];
          return (
            <li
              key={lead.placeId}
              ref={measure}
              data-index={index}
              aria-setsize={results.length}
              aria-posinset={index + 1}
              className="px-6 py-4"
            >
              <p className="font-medium text-slate-900">
                {lead.name}
                {allNew && <NewMark />}
              </p>
              <p className="mt-0.5 text-sm text-slate-600">{lead.address}</p>
              <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                {lead.phone && (
                  <a href={`tel:${lead.phone}`} className="text-indigo-700 hover:underline">
                    {lead.phone}
                  </a>
                )}
                {lead.website && <Website url={lead.website} />}
                {lead.rating != null && (
                  <span className="text-slate-600">
                    ★ {lead.rating.toFixed(1)}
                    {lead.reviewCount != null && ` (${lead.reviewCount})`}
                  </span>
                )}
                <MapLink lead={lead} />
              </div>
              {enriched && (lead.contacts?.emails.length || hasProfiles(lead.contacts) || lead.contacts?.status) ? (
                <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                  <Emails contacts={lead.contacts} />
                  <Profiles contacts={lead.contacts} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * A lead's emails as mailto links; without any, how its website read went ("None found",
 * "Not read: timed out", "No website"), or a dash while it is not known yet.
 */
function Emails({ contacts }: { contacts?: Contacts | null }) {
  const emails = contacts?.emails ?? [];
  if (emails.length === 0) {
    const words = readStatusWords(contacts);
    return <span className="text-slate-500">{words && words !== 'Found' ? words : '—'}</span>;
  }
  return (
    <span className="flex flex-col gap-0.5">
      {emails.map((email) => (
        <a key={email} href={`mailto:${email}`} className="text-indigo-700 hover:underline">
          {email}
        </a>
      ))}
    </span>
  );
}

function hasProfiles(contacts?: Contacts | null): boolean {
  return SOCIAL_NETWORKS.some(({ key }) => Boolean(contacts?.socials?.[key]));
}

/** A lead's social profiles as named links. */
function Profiles({ contacts }: { contacts?: Contacts | null }) {
  const links = SOCIAL_NETWORKS.flatMap(({ key, label }) => {
    const href = contacts?.socials?.[key];
    return href ? [{ href, label }] : [];
  });
  if (links.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <span className="flex flex-wrap gap-x-2 gap-y-0.5">
      {links.map(({ href, label }) => (
        <ExternalLink key={label} url={href} className="text-indigo-700 hover:underline" textClassName="break-all text-slate-600">
          {label}
        </ExternalLink>
      ))}
    </span>
  );
}
