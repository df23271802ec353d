import type { CreateWebhookRequestEventsItem } from '../../api/gen/model/createWebhookRequestEventsItem';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  getListWebhookDeliveriesQueryKey,
  getListWebhooksQueryKey,
  useCreateWebhook,
  useDeleteWebhook,
  useListWebhookDeliveries,
  useListWebhooks,
  useRotateWebhookSecret,
  useTestWebhook,
} from '../../api/gen/integrations/integrations';
import type { WebhookInfo } from '../../api/gen/model/webhookInfo';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { CopyField, errorText, formatTime } from './integration-parts';

/** What each event carries, for the form. */
const EVENT_HELP: Record<string, string> = {
  'search.completed': 'A search finished, with its leads',
  'search.failed': 'A search failed, with the reason',
  'saved_search.new_places': "A monitor's run found new places, with them",
};

/** How often an open delivery log is read again, ms. */
const LOG_REFRESH_MS = 3000;

/**
 * Settings > Webhooks (issue #15): endpoints, their secret, test events and delivery log.
 * `canManage` false (a team workspace's member: webhooks are an admin's, issue #28 item 2)
 * says who manages them instead of asking the API for what it would refuse.
 */
export function WebhooksTab({ canManage = true }: { canManage?: boolean }) {
  if (!canManage) {
    return (
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Webhooks</h2>
        <p className="mt-2 text-sm text-slate-700" data-testid="webhooks-admins-only">
          Webhooks send this workspace&apos;s events to your own systems. Only an admin or owner of this workspace can see
          and change them.
        </p>
      </Card>
    );
  }
  return <ManageWebhooks />;
}

function ManageWebhooks() {
  const id = useId();
  const queryClient = useQueryClient();
  const webhooks = useListWebhooks();
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListWebhooksQueryKey() });
  const create = useCreateWebhook({ mutation: { onSuccess: refresh } });

  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<CreateWebhookRequestEventsItem[]>(['search.completed', 'search.failed']);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!url.trim()) return setError('Enter the https URL that should receive events.');
    if (events.length === 0) return setError('Choose at least one event to send.');
    try {
      const answer = await create.mutateAsync({ data: { url: url.trim(), events } });
      setSecret({ url: answer.webhook.url, secret: answer.secret });
      setUrl('');
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  const available = webhooks.data?.availableEvents ?? [];
  const list = webhooks.data?.webhooks ?? [];

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Webhooks</h2>
        <p className="mt-1 text-sm text-slate-600">
          Leadgen POSTs a signed JSON message to your endpoint when a search completes or fails, following the Standard
          Webhooks specification (headers <code className="font-mono">webhook-id</code>,{' '}
          <code className="font-mono">webhook-timestamp</code>, <code className="font-mono">webhook-signature</code>). Failed
          deliveries are retried for about a day.
        </p>

        {secret && (
          <Banner tone="success" title="Endpoint added. Copy its signing secret now: it will not be shown again." className="mt-4" onDismiss={() => setSecret(null)} dismissLabel="Hide the signing secret">
            <p className="break-all">{secret.url}</p>
            <CopyField label="Signing secret" value={secret.secret} />
          </Banner>
        )}
        {error && (
          <Banner tone="error" className="mt-4">
            {error}
          </Banner>
        )}

        <form onSubmit={submit} noValidate className="mt-5 space-y-4">
          <div>
            <Label htmlFor={`${id}-url`}>Endpoint URL</Label>
            <Input
              id={`${id}-url`}
              type="url"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              placeholder="https://hooks.example.com/leadgen"
              className="mt-1.5"
              aria-describedby={`${id}-url-hint`}
            />
            <Hint id={`${id}-url-hint`}>A public https address. Private and local addresses are refused.</Hint>
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Events</legend>
            <div className="mt-2 flex flex-wrap gap-4">
              {available.map((name) => (
                <label key={name} className="flex items-start gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 rounded border-slate-300"
                    checked={events.includes(name as CreateWebhookRequestEventsItem)}
                    onChange={(event) => setEvents((now) => (event.target.checked ? [...now, name as CreateWebhookRequestEventsItem] : now.filter((e) => e !== name)))}
                  />
                  <span>
                    <span className="font-mono text-slate-900">{name}</span>
                    <span className="block text-xs text-slate-500">{EVENT_HELP[name] ?? ''}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner />}
            Add endpoint
          </Button>
        </form>
      </Card>

      {webhooks.isError && <Banner tone="error">{errorText(webhooks.error)}</Banner>}
      {webhooks.isSuccess && list.length === 0 && (
        <Card>
          <p className="text-sm text-slate-600">No endpoints yet.</p>
        </Card>
      )}
      {list.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} onChanged={refresh} onSecret={(s) => setSecret({ url: endpoint.url, secret: s })} />
      ))}
    </div>
  );
}

function EndpointCard({
  endpoint,
  onChanged,
  onSecret,
}: {
  endpoint: WebhookInfo;
  onChanged: () => Promise<unknown>;
  onSecret: (secret: string) => void;
}) {
  const queryClient = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const refreshLog = () => queryClient.invalidateQueries({ queryKey: getListWebhookDeliveriesQueryKey(endpoint.id) });
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook({ mutation: { onSuccess: onChanged } });

  async function sendTest() {
    try {
      await test.mutateAsync({ id: endpoint.id });
      // Queued, not delivered: whether it arrived shows in the log (issue #26 item 8).
      setMessage({ tone: 'success', text: 'Test event queued. Whether it was delivered shows in the log below.' });
      setShowLog(true);
      await refreshLog();
      window.setTimeout(() => void Promise.all([refreshLog(), onChanged()]), 1500);
    } catch (failure) {
      setMessage({ tone: 'error', text: errorText(failure) });
    }
  }

  async function rotateSecret() {
    try {
      const answer = await rotate.mutateAsync({ id: endpoint.id });
      onSecret(answer.secret);
    } catch (failure) {
      setMessage({ tone: 'error', text: errorText(failure) });
    }
  }

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{endpoint.url}</p>
          <div className="mt-2 flex flex-wrap items-center gap-1">
            {endpoint.enabled ? <Badge tone="green">Active</Badge> : <Badge tone="red">Disabled</Badge>}
            {endpoint.events.map((event) => (
              <Badge key={event} tone="indigo">{event}</Badge>
            ))}
            <span className="text-xs text-slate-500">Added {formatTime(endpoint.createdAt)}</span>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={sendTest} disabled={test.isPending} aria-label={`Send test event to ${endpoint.url}`}>
            {test.isPending && <Spinner />}
            Send test event
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setShowLog((shown) => !shown)} aria-expanded={showLog} aria-label={`Delivery log of ${endpoint.url}`}>
            Delivery log
          </Button>
          <Button size="sm" variant="secondary" onClick={rotateSecret} disabled={rotate.isPending} aria-label={`Rotate secret of ${endpoint.url}`}>
            Rotate secret
          </Button>
          {confirmDelete ? (
            <>
              <Button size="sm" variant="danger" onClick={() => remove.mutate({ id: endpoint.id })}>
                Confirm delete
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setConfirmDelete(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button size="sm" variant="secondary" onClick={() => setConfirmDelete(true)} aria-label={`Delete ${endpoint.url}`}>
              Delete
            </Button>
          )}
        </div>
      </div>
      {!endpoint.enabled && endpoint.disabledReason && (
        <Banner tone="warning" className="mt-4">
          {endpoint.disabledReason}
        </Banner>
      )}
      {message && (
        <Banner tone={message.tone} className="mt-4" onDismiss={() => setMessage(null)}>
          {message.text}
        </Banner>
      )}
      {showLog && <DeliveryLog endpointId={endpoint.id} />}
    </Card>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const log = useListWebhookDeliveries(endpointId, { query: { refetchInterval: LOG_REFRESH_MS } });
  const rows = log.data?.deliveries ?? [];
  if (log.isPending) return <p className="mt-4 text-sm text-slate-600">Loading the delivery log...</p>;
  if (log.isError) return <Banner tone="error" className="mt-4">{errorText(log.error)}</Banner>;
  if (rows.length === 0) return <p className="mt-4 text-sm text-slate-600">No deliveries yet.</p>;
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Delivery log</caption>
        <thead className="border-y border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">Time</th>
            <th scope="col" className="px-3 py-2">Event</th>
            <th scope="col" className="px-3 py-2">Attempt</th>
            <th scope="col" className="px-3 py-2">Status</th>
            <th scope="col" className="px-3 py-2">Latency</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={`${row.messageId}-${row.attempt}`}>
              <td className="px-3 py-2 text-slate-700">{formatTime(row.at)}</td>
              <td className="px-3 py-2 font-mono text-slate-900">{row.event}</td>
              <td className="px-3 py-2 text-slate-700">{row.attempt}</td>
              <td className="px-3 py-2">
                <Badge tone={row.succeeded ? 'green' : 'red'}>{row.statusCode ?? 'No answer'}</Badge>
                {row.error && <span className="ml-2 text-xs text-slate-600">{row.error}</span>}
              </td>
              <td className="px-3 py-2 text-slate-700">{row.latencyMs} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
