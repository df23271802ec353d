import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import {
  getListSearchesQueryKey,
  listSearches,
  useCancelSearch,
  useListBusinessTypes,
  useListClients,
} from "../../api/gen/leads/leads";
import type { ListSearchesParams } from "../../api/gen/model/listSearchesParams";
import type { ListSearchesStatus } from "../../api/gen/model/listSearchesStatus";
import type { SearchItem } from "../../api/gen/model/searchItem";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Label, Select } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { formatUsd } from "../../lib/money";
import { NotifyToggle } from "./search-finished-notice";

/** The statuses a search can have (openapi `SearchItem.status`), with what the filter shows. */
const STATUSES = [
  { value: "", label: "All statuses" },
  { value: "running", label: "Running" },
  { value: "queued", label: "Queued" },
  { value: "complete", label: "Complete" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
] as const;

const PAGE = 10;
const isLive = (item: SearchItem) =>
  item.status === "running" || item.status === "queued";

/** The words a row says once its results left memory (issue #13). */
export function resultsGoneText(replayMinutes: number): string {
  return `Results are no longer available: we keep them in memory for ${replayMinutes} minutes and never store lead data.`;
}

function formatWhen(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(undefined, {
        dateStyle: "medium",
        timeStyle: "short",
      });
}

export interface SearchHistoryPanelProps {
  /** Shows a running search's live stream on the page. */
  onOpen: (item: SearchItem) => void;
  /** Fills the search form with the entry's fields and runs it. */
  onRunAgain: (item: SearchItem) => void;
  /** The search the page is showing, if any (its Open button is hidden). */
  openSearchId?: string | null;
  /**
   * That search's figures as its stream says them (leads sent, dollars so far): its row
   * shows these rather than the server's last checkpoint, read every few seconds, so the
   * row and the progress card never disagree (issue #26 item 8).
   */
  openSearchProgress?: { found: number; costUsd: number | null } | null;
  /** After a search was cancelled (the page stops showing it if it was open). */
  onCancelled?: (item: SearchItem) => void;
  /**
   * Export controls for a finished search whose results the server still holds
   * (`what` names it for the buttons' accessible names). The page composes them from the
   * export feature.
   */
  resultsActions?: (item: SearchItem, what: string) => ReactNode;
}

/**
 * The user's searches, newest first (issue #13): metadata only, filtered by status and
 * type, paged with the server's cursor. Running ones can be opened or cancelled; any can
 * run again; finished ones offer the page's `resultsActions` while the server still has
 * their results.
 */
export function SearchHistoryPanel({
  onOpen,
  onRunAgain,
  onCancelled,
  resultsActions,
  openSearchId = null,
  openSearchProgress = null,
}: SearchHistoryPanelProps) {
  const id = useId();
  const [status, setStatus] = useState<ListSearchesStatus | "">("");
  const [businessType, setBusinessType] = useState("");
  const [client, setClient] = useState("");
  const types = useListBusinessTypes({ query: { staleTime: Infinity } });
  const params: ListSearchesParams = {
    limit: PAGE,
    ...(status ? { status } : {}),
    ...(businessType ? { businessType } : {}),
    ...(client ? { client } : {}),
  };
  const history = useInfiniteQuery({
    queryKey: [...getListSearchesQueryKey(params), "pages"],
    queryFn: ({ pageParam, signal }) =>
      listSearches(
        { ...params, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor,
    // While a search runs its row changes on its own: look again every few seconds.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.searches.some(isLive))
        ? 4000
        : false,
  });
  // The client labels are asked for once the history has answered (nothing more before the
  // dashboard's first render); the filter shows only when the workspace has some.
  const clients = useListClients({
    query: { enabled: history.isSuccess, staleTime: 60_000 },
  });
  const clientChoices = clients.data?.clients ?? [];
  const items = history.data?.pages.flatMap((page) => page.searches) ?? [];
  const replayMinutes = history.data?.pages[0]?.replayMinutes ?? 10;
  const labelOf = (value: string) =>
    types.data?.groups
      .flatMap((group) => group.types)
      .find((type) => type.value === value)?.label ?? value;

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">
            Search history
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            What you searched for, how it went and what it cost. We never store
            the leads themselves.
          </p>
        </div>
        <NotifyToggle />
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 md:max-w-xl">
        <div>
          <Label htmlFor={`${id}-status`}>Status</Label>
          <Select
            id={`${id}-status`}
            className="mt-1.5"
            value={status}
            onChange={(event) =>
              setStatus(event.target.value as ListSearchesStatus | "")
            }
          >
            {STATUSES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
        <div>
          {/* Not "Business type": the search form above owns that label. */}
          <Label htmlFor={`${id}-type`}>Type</Label>
          <Select
            id={`${id}-type`}
            className="mt-1.5"
            value={businessType}
            onChange={(event) => setBusinessType(event.target.value)}
          >
            <option value="">All types</option>
            {types.data?.groups.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.types.map((type) => (
                  <option
                    key={`${group.label}-${type.value}`}
                    value={type.value}
                  >
                    {type.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        </div>
        {(clientChoices.length > 0 || client) && (
          <div>
            <Label htmlFor={`${id}-client`}>Client</Label>
            <Select
              id={`${id}-client`}
              className="mt-1.5"
              value={client}
              onChange={(event) => setClient(event.target.value)}
            >
              <option value="">All clients</option>
              {clientChoices.map((label) => (
                <option key={label} value={label}>
                  {label}
                </option>
              ))}
            </Select>
          </div>
        )}
      </div>

      {history.isPending ? (
        <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading your searches...
        </p>
      ) : history.isError ? (
        <div className="mt-4 flex items-center gap-3">
          <p role="alert" className="text-sm text-red-700">
            {history.error?.message || "Could not load your searches."}
          </p>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void history.refetch()}
          >
            Retry
          </Button>
        </div>
      ) : items.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          {status || businessType || client
            ? "No search matches these filters."
            : "No searches yet."}
        </p>
      ) : (
        <ul
          className="mt-4 divide-y divide-slate-200"
          aria-label="Your searches"
        >
          {items.map((item) => (
            <HistoryRow
              key={item.id}
              item={item}
              typeLabel={labelOf(item.businessType)}
              replayMinutes={replayMinutes}
              open={item.id === openSearchId}
              streamed={item.id === openSearchId ? openSearchProgress : null}
              onOpen={() => onOpen(item)}
              onRunAgain={() => onRunAgain(item)}
              onCancelled={() => onCancelled?.(item)}
              resultsActions={resultsActions}
            />
          ))}
        </ul>
      )}
      {history.hasNextPage && (
        <div className="mt-4">
          <Button
            variant="secondary"
            size="sm"
            disabled={history.isFetchingNextPage}
            onClick={() => void history.fetchNextPage()}
          >
            {history.isFetchingNextPage && <Spinner />}
            Load more
          </Button>
        </div>
      )}
    </Card>
  );
}

const STATUS_TEXT: Record<string, string> = {
  queued: "Queued",
  running: "Running",
  complete: "Complete",
  failed: "Failed",
  cancelled: "Cancelled",
};
/**
 * A complete search that stopped early is not "Complete" (issue #26 item 1): it says why,
 * by the API's `stopReason`.
 */
export const STOPPED_TEXT: Record<string, string> = {
  allowance: "Stopped: daily limit reached",
  max_cost: "Stopped: budget reached",
  spend_cap: "Stopped: monthly spend cap reached",
};

/** The status badge's words for an entry. */
/** How a search's automatic delivery went, in words (issue #26 item 2). */
export function deliveryText(delivery: {
  kind: string;
  status: string;
  detail?: string | null;
}): string {
  const where = delivery.kind === "email" ? "by email" : "to Google Sheets";
  if (delivery.status === "sent")
    return `Delivered: ${delivery.detail ?? where}`;
  if (delivery.status === "failed")
    return `Not delivered ${where}: ${delivery.detail ?? "unknown reason"}`;
  return delivery.detail
    ? `Delivering ${where} (trying again: ${delivery.detail})`
    : `Delivering ${where}...`;
}

export function statusText(item: {
  status: string;
  stopReason?: string | null;
}): string {
  if (
    item.status === "complete" &&
    item.stopReason &&
    STOPPED_TEXT[item.stopReason]
  )
    return STOPPED_TEXT[item.stopReason];
  return STATUS_TEXT[item.status] ?? item.status;
}

const STATUS_CLASS: Record<string, string> = {
  queued: "bg-slate-100 text-slate-800",
  running: "bg-indigo-100 text-indigo-800",
  complete: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  cancelled: "bg-amber-100 text-amber-900",
};

/** "680 found so far", "$0.35 so far". */
function liveFacts(
  progress: { found: number; costUsd?: number | null } | null | undefined,
): string[] {
  if (!progress) return [];
  const found = `${progress.found.toLocaleString("en-US")} found so far`;
  return progress.costUsd == null
    ? [found]
    : [found, `${formatUsd(progress.costUsd)} so far`];
}

function HistoryRow({
  item,
  typeLabel,
  replayMinutes,
  open,
  streamed,
  onOpen,
  onRunAgain,
  onCancelled,
  resultsActions,
}: {
  item: SearchItem;
  typeLabel: string;
  replayMinutes: number;
  open: boolean;
  streamed: { found: number; costUsd: number | null } | null;
  onOpen: () => void;
  onRunAgain: () => void;
  onCancelled: () => void;
  resultsActions?: (item: SearchItem, what: string) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const cancel = useCancelSearch({
    mutation: {
      onSuccess: onCancelled,
      onSettled: () =>
        queryClient.invalidateQueries({ queryKey: getListSearchesQueryKey() }),
    },
  });
  const live = isLive(item);
  const finished = !live;
  // Nothing to export from a search that sent no lead (e.g. one that failed at once).
  const hasLeads = (item.leads ?? 0) > 0;
  const what = `${typeLabel} in ${item.location}`;

  const facts = [
    item.coverage === "full" ? "Full area" : "Quick",
    item.client ? `For ${item.client}` : null,
    formatWhen(item.startedAt),
    // A running search has no figures yet (older servers sent null, newer leave them out).
    typeof item.leads === "number"
      ? `${item.leads.toLocaleString()} leads`
      : null,
    // A search that left out places the workspace had seen (a monitor's run): how many of
    // the places it found were new.
    typeof item.foundCount === "number" && typeof item.newCount === "number"
      ? `${item.newCount.toLocaleString()} new of ${item.foundCount.toLocaleString()} found`
      : null,
    typeof item.costUsd === "number" ? formatUsd(item.costUsd) : null,
    // A running search's progress: what its stream said last when it is open here, else
    // what its last checkpoint counted. Both count leads sent.
    ...(live ? liveFacts(streamed ?? item.progress) : []),
  ].filter(Boolean);

  return (
    // Side by side only from `lg`, and the text keeps at least half the row: beside three
    // unshrinkable buttons it was squeezed to a word per line (issue #26 item 9).
    <li className="flex flex-col gap-2 py-3 lg:flex-row lg:items-start lg:justify-between lg:gap-4">
      <div className="min-w-0 lg:flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span className="truncate">
            {typeLabel} · {item.location}
          </span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
              item.stopReason
                ? STATUS_CLASS.cancelled
                : (STATUS_CLASS[item.status] ?? "bg-slate-100 text-slate-800")
            }`}
          >
            {statusText(item)}
          </span>
        </p>
        <p className="mt-0.5 text-sm text-slate-600">{facts.join(" · ")}</p>
        {item.errorMessage && (
          <p className="mt-0.5 text-sm text-red-700">{item.errorMessage}</p>
        )}
        {item.delivery && (
          <p
            className={`mt-0.5 text-sm ${item.delivery.status === "failed" ? "text-red-700" : "text-slate-600"}`}
          >
            {deliveryText(item.delivery)}
          </p>
        )}
        {finished && hasLeads && !item.resultsAvailable && (
          <p className="mt-0.5 text-sm text-slate-600">
            {resultsGoneText(replayMinutes)}
          </p>
        )}
        {cancel.isError && (
          <p role="alert" className="mt-0.5 text-sm text-red-700">
            {cancel.error?.message || "Could not cancel this search."}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2 lg:max-w-[50%] lg:justify-end [&_button]:whitespace-nowrap">
        {/* A finished search opens again while its results are held: the stream replays
            them from the start (issue #26 item 2). */}
        {(live || (hasLeads && item.resultsAvailable)) && !open && (
          <Button
            variant="secondary"
            size="sm"
            onClick={onOpen}
            aria-label={`Open ${what}`}
          >
            Open
          </Button>
        )}
        {live && (
          <Button
            variant="danger"
            size="sm"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate({ id: item.id })}
            aria-label={`Cancel ${what}`}
          >
            {cancel.isPending && <Spinner />}
            Cancel
          </Button>
        )}
        {finished &&
          hasLeads &&
          item.resultsAvailable &&
          resultsActions?.(item, what)}
        <Button
          variant="secondary"
          size="sm"
          onClick={onRunAgain}
          aria-label={`Run again ${what}`}
        >
          Run again
        </Button>
      </div>
    </li>
  );
}
