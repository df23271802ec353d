import { useGetAuthConfig } from '../api/gen/auth/auth';
import { cn } from './ui/cn';

/**
 * Says, discreetly, that sign-in uses the local operator account when no identity
 * provider is configured. Shows nothing otherwise or while unknown.
 */
export function LocalModeNote({ className, light }: { className?: string; light?: boolean }) {
  // `GET /api/auth/config` changes only with the server's configuration.
  const { data } = useGetAuthConfig({ query: { staleTime: Infinity, retry: false } });
  if (!data?.localMode) return null;
  return (
    <p className={cn('text-xs', light ? 'text-indigo-100' : 'text-slate-500', className)}>
      Local mode: signing in as the local operator
    </p>
  );
}
