import { Link } from '@tanstack/react-router';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';

/** A workspace the address names that the caller cannot open. */
export function WorkspaceUnavailable() {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <Logo />
        </div>
      </header>
      <main className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">This workspace is not available</h1>
        <p className="mt-3 text-slate-600">
          The link names a workspace you are not a member of, or one that no longer exists. Ask its owner to invite you, or
          carry on in your personal workspace.
        </p>
        <Link to="/dashboard" search={{ ws: undefined }} className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to your personal workspace
        </Link>
      </main>
    </div>
  );
}
