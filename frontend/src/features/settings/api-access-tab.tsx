import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { getListTokensQueryKey, useCreateToken, useListTokens, useRevokeToken } from '../../api/gen/integrations/integrations';
import type { CreatedToken } from '../../api/gen/model/createdToken';
import type { CreateTokenRequestScopesItem } from '../../api/gen/model/createTokenRequestScopesItem';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label, Select } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { CopyField, errorText, formatTime } from './integration-parts';

/** Expiry choices, in days (empty: never). */
const EXPIRY_CHOICES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Never' },
];

/** Settings > API access: personal API tokens (issue #15). */
export function ApiAccessTab() {
  const id = useId();
  const queryClient = useQueryClient();
  const tokens = useListTokens();
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListTokensQueryKey() });
  const create = useCreateToken({ mutation: { onSuccess: refresh } });
  const revoke = useRevokeToken({ mutation: { onSuccess: refresh } });

  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<CreateTokenRequestScopesItem[]>(['searches:run', 'usage:read']);
  const [expiry, setExpiry] = useState('90');
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Give the token a name.');
    if (scopes.length === 0) return setError('Choose at least one scope for the token.');
    try {
      const answer = await create.mutateAsync({
        data: { name: name.trim(), scopes, expiresInDays: expiry ? Number(expiry) : undefined },
      });
      setCreated(answer);
      setName('');
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  async function remove(tokenId: string) {
    setConfirming(null);
    try {
      await revoke.mutateAsync({ id: tokenId });
      if (created?.info.id === tokenId) setCreated(null);
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  const available = tokens.data?.availableScopes ?? [];
  const list = tokens.data?.tokens ?? [];

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Personal API tokens</h2>
        <p className="mt-1 text-sm text-slate-600">
          Call the Leadgen API from your own systems with <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>.
          A token can do only what its scopes allow. See the{' '}
          <a href="/api/docs" className="font-medium text-indigo-700 underline">interactive API docs</a>, which accept a token.
        </p>

        {created && (
          <Banner tone="success" title="Token created. Copy it now: it will not be shown again." className="mt-4" onDismiss={() => setCreated(null)} dismissLabel="Hide the new token">
            <CopyField label="New API token" value={created.token} />
          </Banner>
        )}
        {error && (
          <Banner tone="error" className="mt-4">
            {error}
          </Banner>
        )}

        <form onSubmit={submit} noValidate className="mt-5 space-y-4">
          <div>
            <Label htmlFor={`${id}-name`}>Token name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder="CRM sync"
              maxLength={80}
              className="mt-1.5"
            />
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Scopes</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {available.map((scope) => (
                <label key={scope.name} className="flex items-start gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 rounded border-slate-300"
                    checked={scopes.includes(scope.name as CreateTokenRequestScopesItem)}
                    onChange={(event) =>
                      setScopes((now) =>
                        // The server lists the scopes it takes: its names are the enum's.
                        event.target.checked ? [...now, scope.name as CreateTokenRequestScopesItem] : now.filter((s) => s !== scope.name),
                      )
                    }
                  />
                  <span>
                    <span className="font-mono text-slate-900">{scope.name}</span>
                    <span className="block text-xs text-slate-500">{scope.description}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="max-w-xs">
            <Label htmlFor={`${id}-expiry`}>Expires after</Label>
            <Select id={`${id}-expiry`} value={expiry} onChange={(event) => setExpiry(event.target.value)} className="mt-1.5">
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.label} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </Select>
            <Hint>A token can never create or revoke tokens: that needs you signed in here.</Hint>
          </div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner />}
            Create token
          </Button>
        </form>
      </Card>

      <Card padded={false}>
        <h2 className="px-6 pt-6 text-lg font-semibold text-slate-900">Your tokens</h2>
        {tokens.isPending ? (
          <p className="px-6 py-4 text-sm text-slate-600">Loading...</p>
        ) : tokens.isError ? (
          <Banner tone="error" className="m-6">
            {errorText(tokens.error)}
          </Banner>
        ) : list.length === 0 ? (
          <p className="px-6 py-4 text-sm text-slate-600">No tokens yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="mt-3 min-w-full text-left text-sm">
              <thead className="border-y border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-6 py-2">Name</th>
                  <th scope="col" className="px-3 py-2">Token</th>
                  <th scope="col" className="px-3 py-2">Scopes</th>
                  <th scope="col" className="px-3 py-2">Created</th>
                  <th scope="col" className="px-3 py-2">Last used</th>
                  <th scope="col" className="px-3 py-2">Expires</th>
                  <th scope="col" className="px-6 py-2"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.map((token) => (
                  <tr key={token.id}>
                    <td className="px-6 py-3 font-medium text-slate-900">{token.name}</td>
                    <td className="px-3 py-3 font-mono text-slate-700">{token.prefix}…</td>
                    <td className="px-3 py-3">
                      <div className="flex flex-wrap gap-1">
                        {token.scopes.map((scope) => (
                          <Badge key={scope} tone="indigo">{scope}</Badge>
                        ))}
                      </div>
                    </td>
                    <td className="px-3 py-3 text-slate-700">{formatTime(token.createdAt)}</td>
                    <td className="px-3 py-3 text-slate-700">{token.lastUsedAt ? formatTime(token.lastUsedAt) : 'Never'}</td>
                    <td className="px-3 py-3 text-slate-700">{token.expiresAt ? formatTime(token.expiresAt) : 'Never'}</td>
                    <td className="px-6 py-3 text-right whitespace-nowrap">
                      {confirming === token.id ? (
                        <span className="inline-flex gap-2">
                          <Button size="sm" variant="danger" onClick={() => remove(token.id)}>
                            Confirm revoke
                          </Button>
                          <Button size="sm" variant="secondary" onClick={() => setConfirming(null)}>
                            Cancel
                          </Button>
                        </span>
                      ) : (
                        <Button size="sm" variant="secondary" onClick={() => setConfirming(token.id)} aria-label={`Revoke ${token.name}`}>
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
