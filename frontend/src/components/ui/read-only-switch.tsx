/** An always-on, read-only toggle (settings Security & Privacy). */
export function ReadOnlySwitch({ label, description }: { label: string; description: string }) {
  return (
    <div className="flex items-start justify-between gap-4 py-4">
      <div>
        <p className="text-sm font-medium text-slate-900">{label}</p>
        <p className="mt-1 text-sm text-slate-600">{description}</p>
      </div>
      <span
        role="switch"
        aria-checked="true"
        aria-readonly="true"
        aria-disabled="true"
        aria-label={`${label} (always on)`}
        className="relative mt-1 inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-green-500"
      >
        <span className="inline-block size-5 translate-x-5 rounded-full bg-white shadow" />
      </span>
    </div>
  );
}
