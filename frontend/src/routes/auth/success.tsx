import { createFileRoute } from '@tanstack/react-router';
import { AuthSuccessPage } from '../../features/auth/auth-success-page';

export const Route = createFileRoute('/auth/success')({
  component: AuthSuccessPage,
});
