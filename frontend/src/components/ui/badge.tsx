import type { ReactNode } from 'react';
import { cn } from './cn';

export type BadgeTone = 'gray' | 'green' | 'red' | 'yellow' | 'indigo' | 'orange';

const tones: Record<BadgeTone, string> = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  green: 'bg-green-50 text-green-700 ring-green-600/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  yellow: 'bg-yellow-50 text-yellow-800 ring-yellow-600/20',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20',
  orange: 'bg-orange-50 text-orange-700 ring-orange-600/20',
};

export function Badge({ tone = 'gray', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset', tones[tone], className)}>
      {children}
    </span>
  );
}
