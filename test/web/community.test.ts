/**
 * The web view on a Community server (no licence), in Chromium: the Pro pages (dead memory,
 * usage) show the server's 402 `license_required` message in place of data, in the page's
 * language; the entries page falls back to the user's own counts and says so; axe-core finds
 * no serious or critical violation on these pages.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Browser,
  CHROMIUM_SKIP_REASON,
  HAVE_CHROMIUM,
  launchBrowser,
  screenshot,
  seriousViolations,
} from "./browser.js";
import { ensureWebBuild, entryFile, startWebServer, type WebServer } from "./web-fixture.js";

const ENTRY = "0193c000-0000-7000-8000-000000000001";

/** The browser suite, or — without Chromium — a skipped one whose name says what is missing. */
const describeIf = HAVE_CHROMIUM
  ? describe
  : (name: string, body: () => void) => describe.skip(`${name} — ${CHROMIUM_SKIP_REASON}`, body);

let server: WebServer;
let browser: Browser;
let page: Page;

describeIf("the web view on a Community server", () => {
  beforeAll(async () => {
    await ensureWebBuild();
    server = await startWebServer({
      edition: "community",
      files: {
        "acme/app": {
          ".gitriver/knowledge/one.md": entryFile(ENTRY, "The only entry", ["only"]),
        },
        "acme/hidden": {
          ".gitriver/knowledge/hidden.md": entryFile(
            "0193c000-0000-7000-8000-0000000000ff",
            "Hidden",
            ["hidden"],
          ),
        },
      },
    });
    const shown = await server.api("anna", "POST", "/api/v1/repos/acme/app/knowledge/shown", {
      ids: [ENTRY],
    });
    expect(shown.status).toBe(200);
    browser = await launchBrowser("ru-RU");
    page = browser.page;
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("starts in the browser's language (Russian) and signs in", async () => {
    await page.goto(`${server.base}/#/repos`);
    await page.getByLabel("Токен").waitFor();
    expect(await page.evaluate("document.documentElement.lang")).toBe("ru");
    await page.getByLabel("Токен").fill(server.tokens.anna);
    await page.getByRole("button", { name: "Войти" }).click();
    await page.getByRole("heading", { level: 1, name: "Репозитории" }).waitFor();
    await page.getByLabel("Язык").selectOption("en");
    await page.getByRole("heading", { level: 1, name: "Repositories" }).waitFor();
  });

  it("shows the 402 message on the dead-memory page, no table", async () => {
    const api = await server.api<{ error: { code: string; message: string } }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/stats/dead",
    );
    expect(api.status).toBe(402);
    await page.goto(`${server.base}/#/repos/acme/app/dead`);
    const notice = page.locator("section.notice.pro");
    await notice.waitFor();
    expect(await notice.locator("p").textContent()).toBe(api.body.error.message);
    expect(await page.locator("table.dead").count()).toBe(0);
    await screenshot(page, "community-dead-402");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows the 402 message on the usage page", async () => {
    const api = await server.api<{ error: { code: string; message: string } }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/stats/daily?days=30",
    );
    expect(api.status).toBe(402);
    await page.goto(`${server.base}/#/repos/acme/app/usage`);
    const notice = page.locator("section.notice.pro").first();
    await notice.waitFor();
    expect(await notice.locator("p").textContent()).toBe(api.body.error.message);
    await screenshot(page, "community-usage-402");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("lists entries with the user's own counts and says they are not the team's", async () => {
    await page.goto(`${server.base}/#/repos/acme/app`);
    const row = page.locator(`table.entries tr[data-id="${ENTRY}"]`);
    await row.waitFor();
    expect(await row.locator('[data-col="shown"]').textContent()).toBe("1");
    expect(await page.getByText("your own counts").count()).toBe(1);
    await screenshot(page, "community-entries");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
