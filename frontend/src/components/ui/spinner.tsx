import { cn } from './cn';

/** A small spinning ring; decorative, so the caller supplies the text. */
export function Spinner({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent',
        className,
      )}
    />
  );
}

/** A centred full-page loading state with a visible, announced message. */
export function PageLoading({ message }: { message: string }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center" role="status">
      <Spinner className="size-8 text-indigo-600" />
      <p className="text-lg font-medium text-slate-700">{message}</p>
    </div>
  );
}

/** A one-line loading state with a visible, announced message, where a part of a page waits. */
export function InlineLoading({ message }: { message: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
      <Spinner /> {message}
    </p>
  );
}
