/**
 * Debian's Chromium driven by playwright-core for the web view's tests and bench: headless,
 * no sandbox, no GPU, no background traffic, a fresh user-data folder per launch; an axe-core
 * check of the current page (node_modules/axe-core/axe.min.js evaluated in it); and
 * screenshots kept under test-results/web/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { ARTEFACTS, CHROMIUM, ROOT } from "./web-fixture.js";

/** Whether the tests can run here (CI installs the package `chromium`). */
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** Why the browser tests skip, put in the skipped suite's name (the skip-reasons reporter prints it). */
export const CHROMIUM_SKIP_REASON = `skipped: ${CHROMIUM} is absent (apt-get install -y chromium; CI does)`;

/** The launch flags the tests use. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];

/** A launched browser with its own profile folder. */
export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh profile.
 *
 * @param locale - the browser's language (`navigator.language`).
 */
export async function launchBrowser(locale = "en-US"): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "lore-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    locale,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const AXE_SOURCE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

/** One axe violation as the tests report it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core on the page; the serious and critical violations.
 *
 * @param page - a loaded page.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // The server's Content-Security-Policy (script-src 'self') refuses an injected <script>
  // (page.addScriptTag); evaluating the same file over CDP is not a page script, so the
  // policy stays on for the page under test and axe still runs in it.
  if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.evaluate(AXE_SOURCE);
  // A string so the Node-typed test code need not know the DOM's or axe's types.
  const result = (await page.evaluate(`(async () => {
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
  })()`)) as AxeViolation[];
  return result.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * Saves a full-page screenshot as `test-results/web/<name>.png`.
 *
 * @param page - the page.
 * @param name - the file's name without extension.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTEFACTS, { recursive: true });
  const path = join(ARTEFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
