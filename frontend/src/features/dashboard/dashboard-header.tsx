import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { Spinner } from '../../components/ui/spinner';
import type { SessionUser } from '../../lib/session/session-types';

/**
 * Dashboard header: picture, name or email, settings and logout (spec section 2), and the
 * workspace switcher the page supplies (beside the logo; a row of its own on a phone).
 */
export function DashboardHeader({
  user,
  onLogout,
  workspaceSwitcher,
}: {
  user: SessionUser | null;
  onLogout: () => Promise<void>;
  workspaceSwitcher?: ReactNode;
}) {
  const [leaving, setLeaving] = useState(false);
  const display = user?.name?.trim() || user?.email || '';
  const [pictureFailed, setPictureFailed] = useState(false);

  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex min-h-16 max-w-7xl flex-wrap items-center justify-between gap-x-3 gap-y-2 px-4 py-3 sm:flex-nowrap sm:px-6 lg:px-8">
        <Link to="/dashboard" className="order-1 rounded-md" aria-label="Leadgen dashboard">
          <Logo />
        </Link>
        {workspaceSwitcher && <div className="order-3 basis-full sm:order-2 sm:mr-auto sm:basis-auto">{workspaceSwitcher}</div>}
        <div className="order-2 flex min-w-0 items-center gap-2 sm:order-3 sm:gap-4">
          <div className="flex min-w-0 items-center gap-2">
            {user?.picture && !pictureFailed ? (
              <img
                src={user.picture}
                alt=""
                // Decoration, from another origin (a new connection): fetched after what the
                // page is for, rather than competing with its scripts and first reads.
                fetchPriority="low"
                decoding="async"
                referrerPolicy="no-referrer"
                onError={() => setPictureFailed(true)}
                className="size-8 shrink-0 rounded-full object-cover ring-1 ring-slate-200"
              />
            ) : (
              <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700">
                {(display.charAt(0) || '?').toUpperCase()}
              </span>
            )}
            <span className="hidden max-w-[12rem] truncate text-sm font-medium text-slate-800 sm:inline">{display}</span>
          </div>
          <Link to="/monitors" className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Monitors
          </Link>
          <Link to="/settings" className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Settings
          </Link>
          <Button
            variant="secondary"
            size="sm"
            disabled={leaving}
            onClick={async () => {
              setLeaving(true);
              await onLogout();
            }}
          >
            {leaving && <Spinner />}
            Log out
          </Button>
        </div>
      </div>
    </header>
  );
}
