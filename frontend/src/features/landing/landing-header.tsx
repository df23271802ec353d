import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { LocalModeNote } from "../../components/local-mode-note";
import { Button, buttonClasses } from "../../components/ui/button";
import { Logo } from "../../components/ui/logo";
import { useAuth } from "../../lib/session/auth-context";

const NAV = [
  { href: "#features", label: "Features" },
  { href: "#how-it-works", label: "How it works" },
  { href: "#pricing", label: "Pricing" },
  { href: "#faq", label: "FAQ" },
];

/** Sticky landing header: anchors, and sign-in or Dashboard (spec section 2). */
export function LandingHeader() {
  const { isAuthenticated, isLoading, login } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);

  const actions = isAuthenticated ? (
    <Link to="/dashboard" className={buttonClasses("primary", "md")}>
      Dashboard
    </Link>
  ) : (
    <>
      <Button variant="ghost" onClick={login} disabled={isLoading}>
        Log in
      </Button>
      <Button onClick={login} disabled={isLoading}>
        Sign up
      </Button>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/85 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="rounded-md" aria-label="Leadgen home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {NAV.map((item) => (
            <a
              key={item.href}
              href={item.href}
              className="rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900"
            >
              {item.label}
            </a>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">{actions}</div>
        <button
          type="button"
          className="rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? "Close menu" : "Open menu"}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            className="size-6"
          >
            {menuOpen ? (
              <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
            ) : (
              <path strokeLinecap="round" d="M4 7h16M4 12h16M4 17h16" />
            )}
          </svg>
        </button>
      </div>
      {menuOpen && (
        <div
          id="mobile-menu"
          className="border-t border-slate-200 bg-white px-4 pb-4 md:hidden"
        >
          <nav aria-label="Mobile" className="flex flex-col py-2">
            {NAV.map((item) => (
              <a
                key={item.href}
                href={item.href}
                onClick={() => setMenuOpen(false)}
                className="rounded-md px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-50"
              >
                {item.label}
              </a>
            ))}
          </nav>
          <div className="flex flex-wrap gap-2 pt-2">{actions}</div>
          <LocalModeNote className="mt-2" />
        </div>
      )}
    </header>
  );
}
