import type { CostItem } from '../../api/gen/model/costItem';
import type { EstimateResponse } from '../../api/gen/model/estimateResponse';
import type { SearchCompleteness } from '../../api/gen/model/searchCompleteness';
import type { SearchProgress } from '../../api/gen/model/searchProgress';
import { formatUsd } from '../../lib/money';

// Words and figures of full-coverage searches: the estimate, the live progress and what
// a search cost. Numbers are en-US (thousands separators); dollars follow the one rule
// of `lib/money`.

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 1500 → "1,500". */
export function formatCount(value: number): string {
  return COUNT.format(Math.round(value));
}


/** A duration in words: "30 s" up to a minute and a half, then "4 min". */
export function formatSeconds(seconds: number): string {
  const rounded = Math.max(1, Math.round(seconds));
  return rounded < 90 ? `${rounded} s` : `${Math.round(rounded / 60)} min`;
}

/** Last words of catalogue labels that name a trade, not a countable place. */
const UNCOUNTABLE = /(?:care|ing|delivery|takeaway|repair|laundry)$/;

/**
 * The catalogue label as a plural noun for a sentence: "Dentist" → "dentists",
 * "Insurance Agency" → "insurance agencies"; labels naming a trade ("Hair Care",
 * "Computer/Phone Repair") become "hair care businesses".
 */
export function pluralTypeLabel(label: string): string {
  const words = label.trim().toLowerCase();
  if (!words) return 'businesses';
  if (UNCOUNTABLE.test(words)) return `${words} businesses`;
  if (/[^aeiou]y$/.test(words)) return `${words.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(words)) return `${words}es`;
  return `${words}s`;
}

/** "About 1,500 dentists, about $2.70 on your Google key, about 30 s." */
export function estimateText(estimate: Pick<EstimateResponse, 'estimatedLeads' | 'estimatedCostUsd' | 'estimatedSeconds'>, typeLabel: string): string {
  return (
    `About ${formatCount(estimate.estimatedLeads)} ${pluralTypeLabel(typeLabel)}, ` +
    `about ${formatUsd(estimate.estimatedCostUsd)} on your Google key, ` +
    `about ${formatSeconds(estimate.estimatedSeconds)}.`
  );
}

/** "Mapping the area: 24 parts checked", then "Fetching: 680 of about 1,500 · $0.35 so far (about $2.70 in all)". */
export function progressText(progress: SearchProgress): string {
  const about = progress.estimatedPlaces > 0 ? ` of about ${formatCount(progress.estimatedPlaces)}` : '';
  if (progress.areasFetched === 0 && progress.leads === 0) {
    // Free probes only so far: where the businesses are, before any is fetched.
    const counted = progress.placesFound > 0 ? `, ${formatCount(progress.placesFound)} businesses counted so far` : '';
    return `Mapping the area: ${formatCount(progress.areasProbed)} ${progress.areasProbed === 1 ? 'part' : 'parts'} checked${counted}`;
  }
  // Google's own count of the area (the completeness meter), once it has answered, is
  // the better "of about": it does not move as areas are mapped.
  const meter = progress.completeness;
  const sofar = meter ? `found ${formatCount(meter.found)} of about ${formatCount(meter.expected)}` : `${formatCount(progress.leads)}${about}`;
  return `Fetching: ${sofar} · ${formatUsd(progress.costUsd)} so far${forecastText(progress)}`;
}

/** "Found 1,487 of about 1,500 dentists here, by Google's count" (the completeness meter). */
export function completenessText(meter: Pick<SearchCompleteness, 'found' | 'expected'>, typeLabel: string): string {
  return `Found ${formatCount(meter.found)} of about ${formatCount(meter.expected)} ${pluralTypeLabel(typeLabel)} here, by Google's count`;
}

/**
 * The cost forecast, once it is stable: while the area is still being mapped it swings
 * with every extrapolation (users saw $0.95, $6.72 and $2.35 for one search), so it is
 * shown only once a quarter of the planned areas are fetched (issue #26 item 6).
 */
function forecastText(progress: SearchProgress): string {
  const stable = progress.areasPlanned > 0 && progress.areasFetched * 4 >= progress.areasPlanned;
  return stable && progress.estimatedCostUsd > 0 ? ` (about ${formatUsd(progress.estimatedCostUsd)} in all)` : '';
}

/** "This search cost $0.35 on your Google key (12 billable requests)". */
export function costText(cost: Pick<CostItem, 'costUsd' | 'billableRequests'>): string {
  const requests = `${formatCount(cost.billableRequests)} billable ${cost.billableRequests === 1 ? 'request' : 'requests'}`;
  return `This search cost ${formatUsd(cost.costUsd)} on your Google key (${requests})`;
}

/** What a cancelled search kept, in words. */
export function cancelledSummary(found: number, spentUsd?: number): string {
  const leads = `${found.toLocaleString()} ${found === 1 ? 'lead' : 'leads'}`;
  const spent = typeof spentUsd === 'number' ? ` (${formatUsd(spentUsd)} spent on your Google key)` : '';
  return found > 0
    ? `It stopped with ${leads} found${spent}. They are kept for a few minutes: open or export them from Your searches below.`
    : `It stopped before finding any lead${spent}.`;
}
