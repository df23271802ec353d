import { cn } from './cn';

/** The Leadgen wordmark. */
export function Logo({ className, light }: { className?: string; light?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight', className)}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="8" fill="#4f46e5" />
        <path d="M9 22V10h3v9.5h7V22H9z" fill="#fff" />
        <circle cx="22.5" cy="12" r="3" fill="#a5b4fc" />
      </svg>
      <span className={cn('text-lg', light ? 'text-white' : 'text-slate-900')}>Leadgen</span>
    </span>
  );
}
