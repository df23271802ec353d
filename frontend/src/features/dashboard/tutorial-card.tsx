import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { VideoModal } from '../../components/video-modal';

/** Dashboard tutorial card; Watch Tutorial opens the video player (decision: spec leaves the action open). */
export function TutorialCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card className="flex flex-col">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">Getting started</h2>
        <span className="flex size-9 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" fill="currentColor" className="size-5">
            <path d="M8 5v14l11-7z" />
          </svg>
        </span>
      </div>
      <p className="mt-4 flex-1 text-sm text-slate-600">
        A 3-minute walkthrough: choosing business types, searching a city, and exporting leads to Sheets or CSV.
      </p>
      <div className="mt-5 border-t border-slate-100 pt-4">
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
          Watch Tutorial
        </Button>
      </div>
      <VideoModal open={open} onClose={() => setOpen(false)} title="Leadgen tutorial" />
    </Card>
  );
}
