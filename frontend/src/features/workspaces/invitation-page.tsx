import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { getListWorkspacesQueryKey, useAcceptInvitation, useGetInvitation } from '../../api/gen/workspaces/workspaces';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Logo } from '../../components/ui/logo';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-fetch';
import { formatTime, personName } from './invitations-section';
import { workspaceSearchFor } from './current-workspace';
import { roleLabel } from './workspace-rules';

/** What a refused invitation link means, from the API's status (its own message follows). */
export function refusalTitle(error: unknown): string {
  const status = error instanceof ApiError ? error.status : undefined;
  if (status === 404) return 'This invitation is not valid';
  if (status === 410) return 'This invitation has expired';
  if (status === 403) return 'This invitation is for another address';
  return 'The invitation could not be read';
}

/**
 * An invitation link's landing page, `/invitations/<token>` (issue #28 item 9): the
 * `_authed` guard has the visitor sign in and come back; then it says who invited them to
 * which workspace as what, and Accept joins it and opens its dashboard. A used, revoked or
 * expired link, or a sign-in with another address, is said plainly with the API's words.
 */
export function InvitationPage({ token }: { token: string }) {
  const invitation = useGetInvitation(token, { query: { retry: false } });
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  function join() {
    accept.mutate(
      { token },
      {
        onSuccess: async (workspace) => {
          void queryClient.invalidateQueries({ queryKey: getListWorkspacesQueryKey() });
          await navigate({ to: '/dashboard', search: workspaceSearchFor(workspace) });
        },
      },
    );
  }

  let body: ReactNode;
  if (invitation.isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Reading the invitation...
      </p>
    );
  } else if (invitation.isError) {
    body = <Refusal error={invitation.error} />;
  } else {
    const { workspaceName, role, invitedBy, email, expiresAt } = invitation.data;
    body = (
      <>
        <h1 className="text-xl font-bold text-slate-900">
          {personName(invitedBy)} invited you to join {workspaceName} as {roleLabel(role).toLowerCase()}
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          For {email}; the link works until {formatTime(expiresAt)}. You will share the workspace&apos;s Google key, plan and
          search history.
        </p>
        {accept.isError ? (
          <div className="mt-4">
            <Refusal error={accept.error} />
          </div>
        ) : (
          <div className="mt-6 flex flex-wrap gap-3">
            <Button onClick={join} disabled={accept.isPending}>
              {accept.isPending ? 'Joining...' : `Join ${workspaceName}`}
            </Button>
            <Link to="/dashboard" search={{ ws: undefined }} className={buttonClasses('secondary', 'md')}>
              Not now
            </Link>
          </div>
        )}
      </>
    );
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <Logo />
        </div>
      </header>
      <main className="mx-auto max-w-xl px-4 py-12">
        <Card>{body}</Card>
      </main>
    </div>
  );
}

function Refusal({ error }: { error: Error }) {
  return (
    <>
      <Banner tone="error" title={refusalTitle(error)}>
        {error.message} Ask whoever invited you for a new link.
      </Banner>
      <Link to="/dashboard" search={{ ws: undefined }} className={buttonClasses('secondary', 'md', 'mt-4')}>
        Go to your dashboard
      </Link>
    </>
  );
}
