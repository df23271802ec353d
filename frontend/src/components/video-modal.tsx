import { DEMO_VIDEO_URL } from '../lib/brand';
import { Modal } from './ui/modal';

/** A modal video player for the product demo and the dashboard tutorial. */
export function VideoModal({ open, onClose, title }: { open: boolean; onClose: () => void; title: string }) {
  return (
    <Modal open={open} onClose={onClose} title={title} className="max-w-4xl p-3 sm:p-4">
      <div className="aspect-video w-full overflow-hidden rounded-xl bg-slate-900">
        {DEMO_VIDEO_URL ? (
          <video src={DEMO_VIDEO_URL} controls autoPlay playsInline className="size-full" aria-label={title} />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-3 px-6 text-center text-slate-200">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-14 text-indigo-400" fill="currentColor">
              <path d="M8 5v14l11-7z" />
            </svg>
            <p className="text-lg font-semibold">The walkthrough video is being recorded.</p>
            <p className="max-w-md text-sm text-slate-400">
              In short: add your Google Places API key in Settings, pick a business type, type a
              city, and watch leads arrive live. Export them to Google Sheets or CSV.
            </p>
          </div>
        )}
      </div>
    </Modal>
  );
}
