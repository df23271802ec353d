import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useCheckApiKey } from '../../api/gen/leads/leads';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label } from '../../components/ui/field';
import { InlineLoading, Spinner } from '../../components/ui/spinner';
import { apiKeySaveError, canSaveApiKey, canTestApiKey, MESSAGE_CLEAR_MS } from './api-key-rules';
import { useApiKeyStatus, useDeleteKey, useSaveKey, useTestKey } from './use-api-key';

type Message = { tone: 'success' | 'error'; text: string };

/** A failed call's text: the fetch mutator has put the server's text or the operation's default in it. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A message that clears itself after {@link MESSAGE_CLEAR_MS}. */
function useTransientMessage() {
  const [message, setMessage] = useState<Message | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  function show(next: Message, autoClear: boolean) {
    window.clearTimeout(timer.current);
    setMessage(next);
    if (autoClear) timer.current = window.setTimeout(() => setMessage(null), MESSAGE_CLEAR_MS);
  }
  return { message, show, clear: () => setMessage(null) };
}

/**
 * Settings > API Keys (spec sections 2, 4 and 5). `canManage` false (a team workspace's
 * member: saving, testing and removing need an admin, issue #28 item 2) shows the key's
 * state and who may change it, with no control the API would refuse.
 */
export function ApiKeysTab({ canManage = true }: { canManage?: boolean }) {
  const id = useId();
  const status = useApiKeyStatus();
  const preview = status.data?.key_preview ?? null;
  const hasKey = status.data?.has_key ?? false;
  // Each change re-reads the status before it resolves (see use-api-key.ts).
  const saveKey = useSaveKey();
  const deleteKey = useDeleteKey();
  const testKey = useTestKey();
  // A key typed but not saved is checked as typed, and stays in the field (issue #26).
  const checkKey = useCheckApiKey();
  const saving = saveKey.isPending || deleteKey.isPending;
  const testing = testKey.isPending || checkKey.isPending;

  // From the first render when the status is already known (read by the dashboard, say):
  // the field never shows empty for a frame before the effect below fills it.
  const [value, setValue] = useState(() => preview ?? '');
  const [visible, setVisible] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { message, show } = useTransientMessage();

  // The field shows the stored key's masked preview whenever the status (re)loads.
  useEffect(() => {
    setValue(preview ?? '');
  }, [preview, status.dataUpdatedAt]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = apiKeySaveError(value);
    setFieldError(problem);
    if (problem || !canSaveApiKey({ value, preview, saving })) return;
    try {
      const answer = await saveKey.mutateAsync({ data: { api_key: value.trim() } });
      setVisible(false);
      show({ tone: 'success', text: answer.message || 'API key saved successfully' }, true);
    } catch (error) {
      show({ tone: 'error', text: errorText(error) }, false);
    }
  }

  async function test() {
    const typed = value.trim() !== '' && value !== preview ? value.trim() : null;
    try {
      const answer = typed ? await checkKey.mutateAsync({ data: { apiKey: typed } }) : await testKey.mutateAsync();
      show({ tone: answer.valid ? 'success' : 'error', text: answer.message || (answer.valid ? 'API key is valid' : 'API key test failed') }, true);
    } catch (error) {
      show({ tone: 'error', text: errorText(error) }, true);
    }
  }

  async function remove() {
    setConfirmDelete(false);
    try {
      const answer = await deleteKey.mutateAsync({ data: { api_key: '' } });
      show({ tone: 'success', text: answer.message || 'API key removed' }, true);
    } catch (error) {
      show({ tone: 'error', text: errorText(error) }, false);
    }
  }

  const saveEnabled = canSaveApiKey({ value, preview, saving });
  const typedKey = value.trim() !== '' && value !== preview;
  const testEnabled = canTestApiKey({ hasKey: hasKey || typedKey, testing, saving });

  // Until the saved key's status first answers, the tab waits as a whole. Drawn before
  // it, the key's card grew (its status, buttons and hint) and pushed the help card down:
  // a layout shift Lighthouse measured on Settings whenever the start-up session check
  // answered before the status did (CLS 0.049 in 2 of 5 runs, docs/benchmarks.md).
  if (status.isPending) return <InlineLoading message="Loading your API key..." />;

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Google Places API key</h2>
        <p className="mt-1 text-sm text-slate-600">
          Searches run on your own Google Cloud account. Your key is encrypted before it is stored.
        </p>

        {status.isError && (
          <Banner tone="error" className="mt-4">
            {errorText(status.error)}
          </Banner>
        )}

        {!canManage && (
          <p className="mt-5 text-sm text-slate-700" data-testid="api-key-admins-only">
            {hasKey ? `This workspace's saved key: ${preview ?? 'set'}. ` : 'This workspace has no key yet. '}
            Only an admin or owner of this workspace can save, test or remove its key.
          </p>
        )}

        {canManage && (
          <form onSubmit={save} noValidate className="mt-5">
            <Label htmlFor={`${id}-key`}>Places API key</Label>
            <div className="mt-1.5 flex gap-2">
              <Input
                id={`${id}-key`}
                type={visible ? 'text' : 'password'}
                value={value}
                onChange={(event) => {
                  setValue(event.target.value);
                  setFieldError(null);
                }}
                placeholder="AIza..."
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={`${id}-key-hint${fieldError ? ` ${id}-key-error` : ''}`}
              />
              <Button
                variant="secondary"
                onClick={() => setVisible((shown) => !shown)}
                aria-pressed={visible}
                aria-label={visible ? 'Hide API key' : 'Show API key'}
                className="shrink-0"
              >
                {visible ? 'Hide' : 'Show'}
              </Button>
            </div>
            <Hint id={`${id}-key-hint`}>
              {hasKey ? 'The saved key is shown masked. Replace it to save a new one.' : 'Paste the key you created in the Google Cloud console.'}
            </Hint>
            {fieldError && (
              <p id={`${id}-key-error`} role="alert" className="mt-1.5 text-sm text-red-700">
                {fieldError}
              </p>
            )}
            <div className="mt-4 flex flex-wrap items-center gap-2">
              <Button type="submit" disabled={!saveEnabled}>
                {saving && <Spinner />}
                {saving ? 'Saving...' : 'Save Changes'}
              </Button>
              {(hasKey || typedKey) && (
                <Button variant="secondary" onClick={test} disabled={!testEnabled}>
                  {testing && <Spinner />}
                  {testing ? 'Testing...' : 'Test API Key'}
                </Button>
              )}
              {hasKey &&
                (confirmDelete ? (
                  <span className="flex items-center gap-2 text-sm text-slate-700">
                    Remove the saved key?
                    <Button variant="danger" size="sm" onClick={remove} disabled={saving}>
                      Remove
                    </Button>
                    <Button variant="ghost" size="sm" onClick={() => setConfirmDelete(false)}>
                      Cancel
                    </Button>
                  </span>
                ) : (
                  <Button variant="ghost" onClick={() => setConfirmDelete(true)} disabled={saving || testing}>
                    Remove key
                  </Button>
                ))}
            </div>
          </form>
        )}

        {message && (
          <Banner tone={message.tone} className="mt-4">
            {message.text}
          </Banner>
        )}

        {hasKey && (
          <div className="mt-5 rounded-xl border border-slate-200 bg-slate-50 p-4" data-testid="api-key-status">
            {status.data?.is_valid === true ? (
              <p className="flex items-center gap-2 text-sm font-semibold text-green-800">
                <span className="size-2.5 rounded-full bg-green-500" aria-hidden="true" />
                API Key Active
              </p>
            ) : (
              <>
                <p className="flex items-center gap-2 text-sm font-semibold text-slate-800">
                  <span className="size-2.5 rounded-full bg-yellow-400" aria-hidden="true" />
                  API Key Status Unknown
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  {canManage ? 'Click Test API Key to check that your key works.' : 'An admin can test it from this tab.'}
                </p>
              </>
            )}
          </div>
        )}
      </Card>

      <Card>
        <h2 className="text-lg font-semibold text-slate-900">How to get a Google Places API key</h2>
        <ol className="mt-4 list-decimal space-y-2 pl-5 text-sm text-slate-700">
          <li>
            Create a project in the{' '}
            <a href="https://console.cloud.google.com/" target="_blank" rel="noreferrer noopener" className="font-medium text-indigo-700 underline">
              Google Cloud console
            </a>
            .
          </li>
          <li>
            Enable <strong>Places API (New)</strong> for that project (APIs &amp; Services → Library). The legacy
            &ldquo;Places API&rdquo; alone is not enough: searches would fail with SERVICE_DISABLED.
          </li>
          <li>Under APIs &amp; Services → Credentials, create an API key.</li>
          <li>Restrict the key to Places API (New), then paste it above.</li>
        </ol>
      </Card>
    </div>
  );
}
