import { createFileRoute } from '@tanstack/react-router';
import { InvitationPage } from '../../features/workspaces/invitation-page';

/**
 * An invitation link (`<public URL>/invitations/<token>`, built by the API; its SPA
 * fallback serves the app here). Under `_authed`: a signed-out visitor signs in and
 * comes back to it.
 */
export const Route = createFileRoute('/_authed/invitations/$token')({
  component: InvitationRoute,
});

function InvitationRoute() {
  const { token } = Route.useParams();
  return <InvitationPage token={token} />;
}
