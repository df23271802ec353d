// Money, one rule everywhere (issue #26 item 8: "Cost $0.11 on the result is $0.10 in the
// history" came from `Intl` rounding one figure and `toFixed` another). The server sends
// dollars rounded to a tenth of a cent (`leadgen_core::money::round_cents`); every figure
// the app shows goes through here, to the cent, half up from those tenths, the same rule
// as the server's `leadgen_core::money::format_usd`.

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * `usd` in whole cents, half up from its tenths of a cent: 0.105 → 11 (where
 * `(0.105).toFixed(2)` says "0.10", the binary double being a hair under 0.105).
 */
export function toCents(usd: number): number {
  if (!Number.isFinite(usd)) return 0;
  const mills = Math.round(Math.abs(usd) * 1000);
  return Math.sign(usd) * Math.floor((mills + 5) / 10);
}

/** 2.7 → "$2.70", 1234.5 → "$1,234.50", 0.105 → "$0.11". */
export function formatUsd(usd: number): string {
  const cents = toCents(usd);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}$${WHOLE.format(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}

/** A price: whole dollars without cents ("$29"), any other to the cent ("$8.25"). */
export function formatPrice(usd: number): string {
  const text = formatUsd(usd);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}
