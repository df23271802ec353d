import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import lighthouse from 'lighthouse';
import { answerPictures, expect, signUpFromLanding, test } from './fixtures';
import { RESULTS_DIR } from './stack';

// Lighthouse budgets (issue 18), measured with Lighthouse's default mobile preset
// (emulated phone, simulated slow 4G and CPU slowdown) in the Chromium the suite already
// uses, against the e2e stack: the landing page signed out, then the dashboard and
// settings signed in. Reports: test-results/lighthouse/<page>.html.

const CHROMIUM = process.env.LEADGEN_E2E_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
const REPORT_DIR = path.join(RESULTS_DIR, 'lighthouse');
const GOOD_KEY = 'AIzaSyE2eLight0123456789abcdefghijklmn';

type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';
/**
 * Minimum scores (0-100) by category. SEO only for public pages: app pages are `noindex`.
 * Accessibility, best practices and SEO do not depend on timing: they must be perfect.
 * Performance is a figure to improve (target 95, issue #30), printed for every run and kept
 * in docs/benchmarks.md. Its floor fails only a regression well outside the noise (a
 * blocking request, a doubled bundle), on the best of `RUNS` runs, with the CPU slowdown
 * calibrated to the machine (`cpuSlowdownFor`).
 */
const APP_BUDGET: Partial<Record<Category, number>> = { performance: 80, accessibility: 100, 'best-practices': 100 };
const PUBLIC_BUDGET: Partial<Record<Category, number>> = { ...APP_BUDGET, seo: 100 };

test.describe.configure({ timeout: 300_000 });

let context: BrowserContext;
let port = 0;

test.beforeAll(async () => {
  port = 9300 + Math.floor(Math.random() * 500);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'leadgen-lighthouse-'));
  // One browser that Playwright signs in and Lighthouse audits, through its debugging port.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    baseURL: process.env.LEADGEN_E2E_BASE_URL,
    args: [...FLAGS, `--remote-debugging-port=${port}`],
  });
  await answerPictures(context);
  fs.mkdirSync(REPORT_DIR, { recursive: true });
});

test.afterAll(async () => {
  await context?.close();
});

/**
 * Performance is timed on a CPU shared with whatever else runs (two cores in CI), so a
 * page below budget is audited again, up to this many runs in all, and its best run
 * counts; the other categories do not depend on timing.
 */
const RUNS = 5;

/**
 * Lighthouse's default 4x CPU slowdown "moves a typical run in the high-end desktop bracket
 * [benchmark index 1500-2000] somewhere into the mid-tier mobile bracket", and on a weaker
 * machine the docs say to lower it (docs/throttling.md, "Calibrating the CPU slowdown";
 * PageSpeed Insights did the same for its own hosts, Lighthouse #16256). Their table gives
 * the multiplier that reaches a mid-tier phone from each bracket: 4x (2-10) from a high-end
 * desktop, 2x (1-5) from a low-end desktop (1000-1500), a higher one from the range near
 * the top of a bracket, a lower one near its foot. So the slowdown runs through those
 * suggestions at the brackets' middles, 2x at 1,250 and 4x at 1,750, and never above 4x
 * (the default) nor below 1x. CI's two shared cores measure 1,000-1,600 where other
 * machines measured 2,300-2,600; a slowdown proportional to the index (4x at 1,500, 3.2x
 * at 1,200, used until 2026-11-28) left such a machine emulating a phone slower than
 * Lighthouse's default one, and the same build scored 61-71 there against 83-92.
 */
const LOW_END_DESKTOP_MIDDLE = 1250;
const HIGH_END_DESKTOP_MIDDLE = 1750;
const LOW_END_DESKTOP_SLOWDOWN = 2;
const DEFAULT_CPU_SLOWDOWN = 4;

/** The CPU slowdown that emulates Lighthouse's default phone on a machine of `benchmarkIndex`. */
function cpuSlowdownFor(benchmarkIndex: number): number {
  const perIndex = (DEFAULT_CPU_SLOWDOWN - LOW_END_DESKTOP_SLOWDOWN) / (HIGH_END_DESKTOP_MIDDLE - LOW_END_DESKTOP_MIDDLE);
  const scaled = LOW_END_DESKTOP_SLOWDOWN + (benchmarkIndex - LOW_END_DESKTOP_MIDDLE) * perIndex;
  return Math.round(Math.min(DEFAULT_CPU_SLOWDOWN, Math.max(1, scaled)) * 100) / 100;
}

/**
 * `LEADGEN_LIGHTHOUSE_SLOWDOWN=4` fixes the slowdown and audits every page all `RUNS` times,
 * to compare two builds on one machine (docs/benchmarks.md); CI leaves it unset.
 */
const FIXED_SLOWDOWN = Number(process.env.LEADGEN_LIGHTHOUSE_SLOWDOWN) || null;

/** Every run's benchmark index: the next run's slowdown follows their median. */
const benchmarkIndexes: number[] = [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Measures the machine once, before any audit counts: a run of the landing page whose
 * scores are not used, only its benchmark index. */
async function calibrate() {
  const url = new URL('/', process.env.LEADGEN_E2E_BASE_URL).toString();
  const result = await lighthouse(url, { port, logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
  process.stderr.write(
    `[lighthouse] calibration: benchmark index ${Math.round(result.lhr.environment.benchmarkIndex)}, CPU slowdown ${cpuSlowdownFor(median(benchmarkIndexes))}x\n`,
  );
}

/** Audits `pathname` in the shared browser (its storage, so its session, kept) and checks the budget. */
async function audit(pathname: string, name: string, budget: Partial<Record<Category, number>>) {
  const url = new URL(pathname, process.env.LEADGEN_E2E_BASE_URL).toString();
  let best: { scores: Record<Category, number>; lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] } | null = null;
  for (let run = 1; run <= RUNS; run++) {
    const cpuSlowdownMultiplier = FIXED_SLOWDOWN ?? cpuSlowdownFor(median(benchmarkIndexes));
    const result = await lighthouse(url, {
      port,
      output: 'html',
      logLevel: 'error',
      disableStorageReset: true,
      throttling: { cpuSlowdownMultiplier },
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const scores = Object.fromEntries(
      Object.entries(result.lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]),
    ) as Record<Category, number>;
    benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
    const metric = (id: string) => result.lhr.audits[id]?.displayValue ?? '?';
    process.stderr.write(
      `[lighthouse] ${name} (run ${run}): ${JSON.stringify(scores)}; FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, benchmark index ${Math.round(result.lhr.environment.benchmarkIndex)}, CPU slowdown ${cpuSlowdownMultiplier}x\n`,
    );
    if (!best || scores.performance > best.scores.performance) {
      best = { scores, lhr: result.lhr };
      fs.writeFileSync(path.join(REPORT_DIR, `${name}.html`), String(result.report));
    }
    if (!FIXED_SLOWDOWN && (Object.entries(budget) as [Category, number][]).every(([category, min]) => best!.scores[category] >= min)) break;
  }
  const { scores, lhr } = best!;
  const { categories, audits } = lhr;
  for (const [category, min] of Object.entries(budget) as [Category, number][]) {
    // What cost points, to fix without opening the report.
    const lost = categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && (audits[ref.id].score ?? 1) < 1)
      .map((ref) => `${ref.id}: ${audits[ref.id].title} (${audits[ref.id].displayValue ?? audits[ref.id].score})`);
    expect.soft(scores[category], `${name} ${category} >= ${min}; lost points: ${lost.join('; ')}`).toBeGreaterThanOrEqual(min);
  }
}

test('Lighthouse budgets: landing (signed out), dashboard and settings (signed in)', async () => {
  await calibrate();
  await audit('/', 'landing', PUBLIC_BUDGET);

  // Sign up and finish onboarding with a key, so the dashboard is the everyday one.
  const page = context.pages()[0] ?? (await context.newPage());
  await signUpFromLanding(page, 'lighthouse');
  await page.waitForURL((url) => url.pathname === '/onboarding');
  await page.getByLabel('Google Places API key').fill(GOOD_KEY);
  await page.getByRole('button', { name: 'Save and Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 20_000 });
  await expect(page.getByText('Configured & Ready')).toBeVisible();
  await page.goto('about:blank');

  await audit('/dashboard', 'dashboard', APP_BUDGET);
  await audit('/settings', 'settings', APP_BUDGET);
});
