import { useQuery } from '@tanstack/react-query';
import { authConfigQueryKey, fetchAuthConfig } from '../lib/session/session-api';
import { cn } from './ui/cn';

/**
 * Says, discreetly, that sign-in uses the local operator account when no identity
 * provider is configured. Shows nothing otherwise or while unknown.
 */
export function LocalModeNote({ className, light }: { className?: string; light?: boolean }) {
  const { data } = useQuery({
    queryKey: authConfigQueryKey,
    queryFn: fetchAuthConfig,
    staleTime: Infinity,
    retry: false,
  });
  if (!data?.localMode) return null;
  return (
    <p className={cn('text-xs', light ? 'text-indigo-100' : 'text-slate-500', className)}>
      Local mode: signing in as the local operator
    </p>
  );
}
