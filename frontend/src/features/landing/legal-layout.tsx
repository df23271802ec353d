import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Logo } from "../../components/ui/logo";

/** Today's date, as the spec wants for the 'last updated' line. */
export function formatToday(date: Date = new Date()): string {
  return date.toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
  });
}

/** Shared frame of the static legal pages, with a back-to-home link. */
export function LegalLayout({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-4xl items-center justify-between px-4 sm:px-6">
          <Link to="/" className="rounded-md" aria-label="Leadgen home">
            <Logo />
          </Link>
          <Link
            to="/"
            className="text-sm font-medium text-indigo-700 hover:text-indigo-600"
          >
            ← Back to Home
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <article className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">
            {title}
          </h1>
          <p className="mt-2 text-sm text-slate-500">
            Last updated: {formatToday()}
          </p>
          <div className="mt-8 space-y-8 text-slate-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_li]:list-disc [&_p]:mt-3 [&_p]:leading-7 [&_ul]:mt-3 [&_ul]:space-y-1.5">
            {children}
          </div>
        </article>
      </main>
    </div>
  );
}
