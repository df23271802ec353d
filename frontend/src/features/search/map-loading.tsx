import { Spinner } from '../../components/ui/spinner';

/** Where the map will be, while a chunk of "Draw on a map" loads. */
export function MapLoading() {
  return (
    <p className="flex h-80 items-center justify-center gap-2 rounded-lg bg-slate-100 text-sm text-slate-600">
      <Spinner />
      Loading the map...
    </p>
  );
}
