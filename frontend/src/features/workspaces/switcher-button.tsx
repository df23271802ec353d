import type { ButtonHTMLAttributes, Ref } from 'react';

/**
 * The switcher's button: the current workspace's name. Also what the header shows while
 * the switcher's code loads (lazy-workspace-switcher.tsx), so nothing moves when it comes.
 */
export function SwitcherButton({ name, ref, ...props }: { name: string; ref?: Ref<HTMLButtonElement> } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      ref={ref}
      type="button"
      className="flex max-w-full min-w-0 items-center gap-1.5 rounded-lg px-2 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-200 ring-inset hover:bg-slate-50 sm:max-w-[16rem] sm:px-3"
      {...props}
    >
      <span className="sr-only">Workspace:</span> <span className="truncate">{name}</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4 shrink-0 text-slate-500">
        <path fillRule="evenodd" d="M5.2 7.2a1 1 0 0 1 1.4 0L10 10.6l3.4-3.4a1 1 0 1 1 1.4 1.4l-4.1 4.1a1 1 0 0 1-1.4 0L5.2 8.6a1 1 0 0 1 0-1.4z" clipRule="evenodd" />
      </svg>
    </button>
  );
}
