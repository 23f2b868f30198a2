/**
 * The web view in a real browser (Debian's Chromium via playwright-core) against a real
 * `lore serve` with a Pro test licence: sign in with a token, navigate repositories → entries
 * → entry, a malicious body rendered inert, drafts delivered and discarded from the page (and
 * checked over the API), merge requests with their machine mark, the usage chart's and the
 * dead-memory table's numbers against the API, a repository of another user never shown, the
 * language switch, sign out; load receipts made by real recalls over `/mcp` shown row by row
 * as the API has them (mine and the repository's, older pages by `next_cursor`, never another
 * user's; a reader of a repository gets its 403); axe-core on every page (no serious or
 * critical violation); screenshots in test-results/web/.
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

const ROLLBACK = "0193b000-0000-7000-8000-000000000001";
const MIGRATE = "0193b000-0000-7000-8000-000000000002";
const EVIL = "0193b000-0000-7000-8000-000000000003";
const ON_PATH = "0193b000-0000-7000-8000-000000000004";
const QUIET = "0193b000-0000-7000-8000-000000000005";
const TOOLY = "0193b000-0000-7000-8000-000000000006";
const HIDDEN = "0193b000-0000-7000-8000-0000000000ff";

const TOOLY_FILE = `---
id: ${TOOLY}
origin: human
contract:
  - mechanism: on_tool
    params:
      name: run_migration
summary: "Before run_migration: take a snapshot"
---

Take a snapshot first.
`;

/** One receipt of the API (src/core/receipts/receipt-schema.ts). */
interface ApiReceipt {
  id: string;
  at: string;
  user: string;
  client: string;
  session: string | null;
  query: string | null;
  tool: string | null;
  hits: {
    rank: number;
    repo: string;
    id: string;
    revision: string;
    why: (
      | { kind: "on_query"; word: string }
      | { kind: "on_tool"; name: string }
      | { kind: "text" }
    )[];
  }[];
}

/** A receipt as a row of the page shows it (and as {@link expectedRow} makes it from the API). */
interface ShownRow {
  id: string | null;
  at: string | null | undefined;
  user: string | null | undefined;
  client: string | null | undefined;
  session: string | null | undefined;
  query: string | null | undefined;
  tool: string | null | undefined;
  hits: {
    id: string | null | undefined;
    href: string | null | undefined;
    rank: string | null | undefined;
    repo: string | null | undefined;
    revision: string | null | undefined;
    why: string | null | undefined;
  }[];
}

function expectedRow(r: ApiReceipt): ShownRow {
  return {
    id: r.id,
    at: r.at,
    user: r.user,
    client: r.client,
    session: r.session ?? "—",
    query: r.query,
    tool: r.tool,
    hits: r.hits.map((h) => {
      const [owner = "", name = ""] = h.repo.split("/");
      return {
        id: h.id,
        href: `#/repos/${owner}/${name}/entries/${h.id}`,
        rank: `#${h.rank}`,
        repo: h.repo,
        revision: h.revision,
        why: h.why
          .map((w) =>
            w.kind === "on_query"
              ? `on_query: ${w.word}`
              : w.kind === "on_tool"
                ? `on_tool: ${w.name}`
                : "text",
          )
          .join(", "),
      };
    }),
  };
}

/** The receipts table's rows as the page shows them. */
function shownRows(page: Page): Promise<ShownRow[]> {
  return page.locator("table.receipts tbody tr").evaluateAll((trs) =>
    trs.map((tr) => {
      const col = (el: Pick<typeof tr, "querySelector">, name: string) =>
        el.querySelector(`[data-col="${name}"]`)?.textContent ?? null;
      return {
        id: tr.getAttribute("data-receipt"),
        at: tr.querySelector("time")?.getAttribute("datetime"),
        user: col(tr, "user"),
        client: col(tr, "client"),
        session: col(tr, "session"),
        query: col(tr, "query"),
        tool: col(tr, "tool"),
        hits: [...tr.querySelectorAll("li[data-hit]")].map((li) => ({
          id: col(li, "id"),
          href: li.querySelector('a[data-col="id"]')?.getAttribute("href"),
          rank: col(li, "rank"),
          repo: col(li, "repo"),
          revision: li.querySelector('[data-col="revision"]')?.getAttribute("data-revision"),
          why: col(li, "why"),
        })),
      };
    }),
  );
}

const EVIL_BODY = [
  "# Evil",
  "",
  "<script>window.__pwned = 'script'</script>",
  "",
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "",
  "[click me](javascript:window.__pwned='link')",
  "",
  "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "",
  "[tab link](java\tscript:alert(1))",
  "",
  "[fine link](https://example.com/docs)",
  "",
  "<b>raw bold</b>",
].join("\n");

const ON_PATH_FILE = `---
id: ${ON_PATH}
origin: human
contract:
  - mechanism: on_path
    params:
      paths: ["deploy/**"]
summary: "Touching deploy files"
---

Only when deploy files change.
`;

/** The browser suite, or — without Chromium — a skipped one whose name says what is missing. */
const describeIf = HAVE_CHROMIUM
  ? describe
  : (name: string, body: () => void) => describe.skip(`${name} — ${CHROMIUM_SKIP_REASON}`, body);

let server: WebServer;
let browser: Browser;
let page: Page;

/** The `#/…` address on the server. */
function at(hash: string): string {
  return `${server.base}/${hash}`;
}

async function checkAxe(name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

describeIf("the web view in Chromium against a real lore serve (Pro)", () => {
  beforeAll(async () => {
    await ensureWebBuild();
    server = await startWebServer({
      edition: "pro",
      files: {
        "acme/app": {
          ".gitriver/knowledge/rollback.md": entryFile(
            ROLLBACK,
            "Roll back a failed deploy",
            ["rollback", "deploy"],
            [MIGRATE],
            "Run `deploy rollback` and **check** the [runbook](https://example.com/runbook).",
          ),
          ".gitriver/knowledge/migrate.md": entryFile(
            MIGRATE,
            "Run migrations as the schema owner",
            ["migration"],
            [ROLLBACK],
          ),
          ".gitriver/knowledge/evil.md": entryFile(EVIL, "An evil body", ["evil"], [], EVIL_BODY),
          ".gitriver/knowledge/on-path.md": ON_PATH_FILE,
          ".gitriver/knowledge/quiet.md": entryFile(QUIET, "Nobody asks for this", ["quiet"]),
          ".gitriver/knowledge/tooly.md": TOOLY_FILE,
        },
        "acme/hidden": {
          ".gitriver/knowledge/hidden.md": entryFile(HIDDEN, "Hidden secret entry", ["hidden"]),
        },
      },
    });
    // Usage to show: anna was shown rollback and migrate, and read rollback.
    const shown = await server.api("anna", "POST", "/api/v1/repos/acme/app/knowledge/shown", {
      ids: [ROLLBACK, MIGRATE],
    });
    expect(shown.status).toBe(200);
    const read = await server.api(
      "anna",
      "POST",
      `/api/v1/repos/acme/app/knowledge/entries/${ROLLBACK}/read`,
    );
    expect(read.status).toBe(200);
    // Receipts to show, by real recalls over /mcp that do not count as shown (the usage
    // numbers above stay): anna 22 (a second page at the default 20), one by tool; boris 1.
    const annas: Record<string, unknown>[] = [
      { query: "rollback the deploy", count_shown: false },
      { tool: "run_migration", count_shown: false },
    ];
    for (let i = 0; i < 20; i++) annas.push({ query: `migration step ${i}`, count_shown: false });
    await server.recall("anna", annas, "anna-agent");
    await server.recall("boris", [{ query: "hidden", count_shown: false }], "boris-agent");
    browser = await launchBrowser("en-US");
    page = browser.page;
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("signs in with a token: the sign-in page, then the repositories anna can read — never boris's", async () => {
    await page.goto(at("#/repos"));
    await page.getByLabel("Token").waitFor();
    await checkAxe("01-sign-in");
    await page.getByLabel("Token").fill(server.tokens.anna);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Repositories" }).waitFor();
    await expect.poll(() => page.locator("table.repos tbody tr").count()).toBe(1);
    const listed = await page.locator("table.repos tbody a").allTextContents();
    const api = await server.api<{ full_name: string }[]>("anna", "GET", "/api/v1/repos");
    expect(listed).toEqual(api.body.map((r) => r.full_name));
    expect(listed).toEqual(["acme/app"]);
    // boris can read acme/hidden: it exists, and anna's page never names it.
    const boris = await server.api<{ full_name: string }[]>("boris", "GET", "/api/v1/repos");
    expect(boris.body.map((r) => r.full_name)).toEqual(["acme/hidden"]);
    expect(await page.content()).not.toContain("acme/hidden");
    await expect.poll(() => page.locator("[data-user]").getAttribute("data-user")).toBe("anna");
    await checkAxe("02-repos");
  });

  it("a hidden repository's pages show the refusal of a missing one, none of its entries", async () => {
    for (const hash of [
      "#/repos/acme/hidden",
      `#/repos/acme/hidden/entries/${HIDDEN}`,
      "#/repos/acme/hidden/dead",
    ]) {
      await page.goto(at(hash));
      await page.locator("[role=alert]").first().waitFor();
      expect(await page.locator("[role=alert]").first().textContent()).toContain("repo_not_found");
      const html = await page.content();
      expect(html).not.toContain("Hidden secret entry");
      expect(html).not.toContain("hidden.md");
    }
    await checkAxe("03-hidden-refused");
  });

  it("navigates repos → entries: every record, contract, reachability and the team's counts as the API has them, the links graph", async () => {
    await page.goto(at("#/repos"));
    await page.getByRole("link", { name: "acme/app" }).click();
    await page.getByRole("heading", { level: 1, name: /Entries/ }).waitFor();
    await page.locator("table.entries tbody tr").first().waitFor();
    const api = await server.api<{
      items: { id: string; diagnostics: { code: string; message: string }[] }[];
    }>("anna", "GET", "/api/v1/repos/acme/app/knowledge");
    const ids = await page
      .locator("table.entries tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")));
    expect(ids.sort()).toEqual(api.body.items.map((i) => i.id).sort());
    const team = await server.api<{ items: { id: string; shown: number; read: number }[] }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/stats/team",
    );
    for (const row of team.body.items) {
      const tr = page.locator(`table.entries tr[data-id="${row.id}"]`);
      expect(await tr.locator('[data-col="shown"]').textContent()).toBe(String(row.shown));
      expect(await tr.locator('[data-col="read"]').textContent()).toBe(String(row.read));
    }
    const rollback = team.body.items.find((r) => r.id === ROLLBACK);
    expect(rollback).toMatchObject({ shown: 1, read: 1 });
    const onPath = page.locator(`table.entries tr[data-id="${ON_PATH}"]`);
    expect(await onPath.textContent()).toContain("Unreachable");
    expect(await onPath.textContent()).toContain("on_path");
    // The last parse's diagnostics of the unreachable entry, as the listing gives them.
    const report = api.body.items.find((i) => i.id === ON_PATH)?.diagnostics ?? [];
    expect(report.length).toBeGreaterThan(0);
    for (const d of report) {
      expect(await onPath.textContent()).toContain(d.code);
      expect(await onPath.textContent()).toContain(d.message);
    }
    const rollbackRow = page.locator(`table.entries tr[data-id="${ROLLBACK}"]`);
    expect(await rollbackRow.textContent()).toContain("words: rollback, deploy");
    // Two entries link to each other: two arrows, both listed as text.
    expect(await page.locator("figure.graph svg line").count()).toBe(2);
    expect(await page.locator("figure.graph .link-list li").count()).toBe(2);
    await page.getByLabel("Filter").fill("migrations");
    await expect.poll(() => page.locator("table.entries tbody tr").count()).toBe(1);
    await checkAxe("04-entries");
    await page.getByLabel("Filter").fill("");
  });

  it("navigates entries → entry: its fields and its body rendered from markdown", async () => {
    await page.getByRole("link", { name: "Roll back a failed deploy" }).first().click();
    await page.getByRole("heading", { level: 2, name: "Roll back a failed deploy" }).waitFor();
    const body = page.locator(".markdown");
    await body.locator("strong").waitFor();
    expect(await body.locator("strong").textContent()).toBe("check");
    expect(await body.locator("code").textContent()).toBe("deploy rollback");
    expect(await body.locator("a").getAttribute("href")).toBe("https://example.com/runbook");
    expect(await body.locator("a").getAttribute("rel")).toContain("noopener");
    expect(await page.locator('dd[data-col="shown"]').textContent()).toBe("1");
    expect(await page.locator('dd[data-col="read"]').textContent()).toBe("1");
    await checkAxe("05-entry");
  });

  it("renders a malicious body inert: no script, no raw HTML, no javascript: or data: link", async () => {
    await page.goto(at(`#/repos/acme/app/entries/${EVIL}`));
    const body = page.locator(".markdown");
    await body.locator("h1").waitFor();
    // Let anything that could run, run.
    await page.waitForTimeout(300);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await body.locator("script, img, b, iframe, [onerror]").count()).toBe(0);
    const hrefs = await body
      .locator("a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(["https://example.com/docs"]);
    const text = (await body.textContent()) ?? "";
    expect(text).toContain("<script>window.__pwned = 'script'</script>");
    expect(text).toContain("<b>raw bold</b>");
    expect(text).toContain("[click me](javascript:window.__pwned='link')");
    // Clicking the would-be link does nothing either (it is text).
    await body.getByText("click me", { exact: false }).first().click();
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    await checkAxe("06-entry-malicious");
  });

  it("lists drafts per branch marked unverified; Deliver delivers them (checked over the API), Discard removes one", async () => {
    for (const [branch, title] of [
      ["main", "Retry the deploy on a 502"],
      ["main", "Pin the node version"],
      ["feature/x", "A draft to throw away"],
    ] as const) {
      const made = await server.api("anna", "POST", "/api/v1/repos/acme/app/knowledge/drafts", {
        branch,
        title,
        body: `${title}: what we learned.`,
        words: ["draft"],
      });
      expect(made.status).toBe(201);
    }
    await page.goto(at("#/repos/acme/app"));
    await page.getByRole("link", { name: "Drafts", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: /Drafts/ }).waitFor();
    await page.locator("li.draft").first().waitFor();
    expect(await page.locator("li.draft").count()).toBe(3);
    expect(await page.locator("li.draft .badge.draft").count()).toBe(3);
    expect(await page.locator("li.draft .badge.draft").first().textContent()).toBe("unverified");
    await checkAxe("07-drafts");
    const main = page.locator('section[data-branch="main"]');
    await main.getByLabel("Label").fill("web");
    await main.getByRole("button", { name: /Deliver/ }).click();
    const done = page.locator("p.notice.ok");
    await done.waitFor();
    expect(await done.textContent()).toContain("Delivered 2 draft(s)");
    const drafts = await server.api<{
      items: { id: string; branch: string; delivered?: { merge_request?: number } }[];
    }>("anna", "GET", "/api/v1/repos/acme/app/knowledge/drafts?per_page=100");
    const onMain = drafts.body.items.filter((d) => d.branch === "main");
    expect(onMain).toHaveLength(2);
    for (const d of onMain) expect(d.delivered?.merge_request).toBe(1);
    await expect.poll(() => page.locator('section[data-branch="main"] .badge.ok').count()).toBe(2);
    await checkAxe("08-drafts-delivered");
    // Discard the feature/x draft (the page asks first).
    page.once("dialog", (dialog) => void dialog.accept());
    const other = page.locator('section[data-branch="feature/x"]');
    await other.getByRole("button", { name: /Discard/ }).click();
    await expect.poll(() => page.locator('section[data-branch="feature/x"]').count()).toBe(0);
    const after = await server.api<{ items: { branch: string }[] }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/drafts?branch=feature%2Fx",
    );
    expect(after.body.items).toEqual([]);
  });

  it("shows the merge request delivery opened, with its machine mark and its diff stat as the API has it", async () => {
    await page.goto(at("#/repos/acme/app/pulls"));
    await page.locator("table.pulls tbody tr").first().waitFor();
    const row = page.locator('table.pulls tr[data-pull="1"]');
    expect(await row.locator(".badge.machine").textContent()).toBe("machine");
    await checkAxe("09-pulls");
    await row.getByRole("link", { name: /Diff/ }).click();
    const stat = page.locator("[data-diff-stat]");
    await stat.waitFor();
    const api = await server.api<{
      diff_stat: { files: number; insertions: number; deletions: number };
    }>("anna", "GET", "/api/v1/repos/acme/app/pulls/1");
    const { files, insertions, deletions } = api.body.diff_stat;
    expect(files).toBe(2);
    expect(await stat.textContent()).toBe(`${files} file(s) changed, +${insertions} −${deletions}`);
    await checkAxe("10-pull");
  });

  it("draws the usage chart with the numbers of stats/daily, for the repository and for one entry", async () => {
    await page.goto(at("#/repos/acme/app/usage"));
    await page.locator(".chart canvas").first().waitFor();
    const api = await server.api<{ days: { day: string; shown: number; read: number }[] }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/stats/daily?days=30",
    );
    expect(api.status).toBe(200);
    const sum = (key: "shown" | "read") => api.body.days.reduce((n, d) => n + d[key], 0);
    expect(sum("shown")).toBe(2);
    expect(sum("read")).toBe(1);
    const chart = page.locator(".chart").first();
    expect(await chart.locator('[data-total="shown"]').textContent()).toBe(String(sum("shown")));
    expect(await chart.locator('[data-total="read"]').textContent()).toBe(String(sum("read")));
    expect(await chart.locator("table.usage-table tbody tr").count()).toBe(api.body.days.length);
    for (const d of api.body.days.filter((x) => x.shown + x.read > 0)) {
      const cells = await chart.locator(`tr[data-day="${d.day}"] td`).allTextContents();
      expect(cells).toEqual([d.day, String(d.shown), String(d.read)]);
    }
    await checkAxe("11-usage");
    await page.getByLabel("Entry").selectOption(MIGRATE);
    await expect.poll(() => page.locator(".chart").count()).toBe(2);
    const one = page.locator(".chart").nth(1);
    expect(await one.locator('[data-total="shown"]').textContent()).toBe("1");
    expect(await one.locator('[data-total="read"]').textContent()).toBe("0");
  });

  it("shows the dead-memory table as stats/dead has it: ailments, thresholds, sortable, filterable, rows linking to entries", async () => {
    await page.goto(at("#/repos/acme/app/dead"));
    await page.locator("[data-thresholds]").waitFor();
    await page.getByLabel("Shown at least (min_shown)").fill("1");
    await page.getByLabel("Days in the index at least (min_age_days)").fill("0");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(() => page.locator("[data-thresholds]").textContent())
      .toBe("Thresholds applied: min_shown 1, min_age_days 0");
    const api = await server.api<{ items: { id: string; ailment: string; shown: number }[] }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/stats/dead?min_shown=1&min_age_days=0",
    );
    const rows = page.locator("table.dead tbody tr");
    await expect.poll(() => rows.count()).toBe(api.body.items.length);
    const byId = await rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute("data-id"),
        tr.querySelector('[data-col="shown"]')?.textContent,
      ]),
    );
    expect(Object.fromEntries(byId)).toEqual(
      Object.fromEntries(api.body.items.map((r) => [r.id, String(r.shown)])),
    );
    const ailments = Object.fromEntries(api.body.items.map((r) => [r.id, r.ailment]));
    expect(ailments[ON_PATH]).toBe("unreachable");
    expect(ailments[MIGRATE]).toBe("shown_not_read");
    expect(ailments[QUIET]).toBe("never_shown");
    await checkAxe("12-dead");
    // Sort by shown, descending (two clicks): migrate (shown 1) comes first.
    await page.locator('button[data-sort="shown"]').click();
    await page.locator('button[data-sort="shown"]').click();
    expect(await page.locator('th:has(button[data-sort="shown"])').getAttribute("aria-sort")).toBe(
      "descending",
    );
    expect(await rows.first().getAttribute("data-id")).toBe(MIGRATE);
    // Filter by ailment.
    await page.getByLabel("Ailment").selectOption("unreachable");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute("data-id")).toBe(ON_PATH);
    await rows.first().getByRole("link").click();
    await page.getByRole("heading", { level: 2, name: "Touching deploy files" }).waitFor();
  });

  it("shows my receipts row by row as the API has them, older ones by next_cursor, never another user's", async () => {
    const all = await server.api<{ items: ApiReceipt[]; next_cursor: string | null }>(
      "anna",
      "GET",
      "/api/v1/receipts?limit=100",
    );
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(22);
    expect(all.body.next_cursor).toBeNull();
    const first = await server.api<{ items: ApiReceipt[]; next_cursor: string | null }>(
      "anna",
      "GET",
      "/api/v1/receipts",
    );
    expect(first.body.items).toHaveLength(20);
    expect(first.body.next_cursor).not.toBeNull();
    // The recalls found what they should: rollback by its word, the tool entry by its name.
    const byQuery = all.body.items.find((r) => r.query === "rollback the deploy");
    expect(byQuery?.hits.find((h) => h.id === ROLLBACK)?.why).toContainEqual({
      kind: "on_query",
      word: "rollback",
    });
    const byTool = all.body.items.find((r) => r.tool === "run_migration");
    expect(byTool?.hits.find((h) => h.id === TOOLY)?.why).toContainEqual({
      kind: "on_tool",
      name: "run_migration",
    });
    expect(new Set(all.body.items.map((r) => r.client))).toEqual(new Set(["anna-agent"]));
    expect(new Set(all.body.items.map((r) => r.user))).toEqual(new Set(["anna"]));

    await page.goto(at("#/receipts"));
    await page.locator("table.receipts tbody tr").first().waitFor();
    expect(await shownRows(page)).toEqual(first.body.items.map(expectedRow));
    await checkAxe("13-receipts-mine");
    await page.locator("button[data-older]").click();
    await expect.poll(() => page.locator("table.receipts tbody tr").count()).toBe(22);
    expect(await shownRows(page)).toEqual(all.body.items.map(expectedRow));
    expect(await page.locator("button[data-older]").count()).toBe(0);
    // boris's receipt exists, and anna's page shows nothing of it.
    const boris = await server.api<{ items: ApiReceipt[] }>("boris", "GET", "/api/v1/receipts");
    expect(boris.body.items).toHaveLength(1);
    const borisId = boris.body.items[0]?.id ?? "";
    expect(await page.locator(`tr[data-receipt="${borisId}"]`).count()).toBe(0);
    const html = await page.content();
    expect(html).not.toContain("boris-agent");
    expect(html).not.toContain("Signed in as boris");
    expect(html).not.toContain(HIDDEN);
    // A hit links to its entry.
    await page.locator(`tr[data-receipt="${byTool?.id}"] a[data-col="id"]`).first().click();
    await page
      .getByRole("heading", { level: 2, name: "Before run_migration: take a snapshot" })
      .waitFor();
  });

  it("shows the repository's receipts (a writer) as the API has them", async () => {
    const api = await server.api<{ items: ApiReceipt[]; next_cursor: string | null }>(
      "anna",
      "GET",
      "/api/v1/repos/acme/app/knowledge/receipts",
    );
    expect(api.status).toBe(200);
    expect(api.body.items.length).toBeGreaterThan(0);
    for (const r of api.body.items) for (const h of r.hits) expect(h.repo).toBe("acme/app");
    await page.goto(at("#/repos/acme/app/receipts"));
    await page.locator("table.receipts tbody tr").first().waitFor();
    expect(await shownRows(page)).toEqual(api.body.items.map(expectedRow));
    expect(await page.locator("button[data-older]").count()).toBe(api.body.next_cursor ? 1 : 0);
    expect(await page.locator("main [role=alert]").count()).toBe(0);
    await checkAxe("14-receipts-repo");
  });

  it("switches to Russian: every string of the page from the Russian dictionary", async () => {
    await page.goto(at("#/repos/acme/app/dead"));
    await page.getByLabel("Language").selectOption("ru");
    await page.getByRole("heading", { level: 1, name: /Мёртвая память/ }).waitFor();
    expect(await page.evaluate("document.documentElement.lang")).toBe("ru");
    expect(await page.getByRole("button", { name: "Выйти" }).count()).toBe(1);
    await checkAxe("15-dead-ru");
    await page.getByLabel("Язык").selectOption("en");
    await page.getByRole("heading", { level: 1, name: /Dead memory/ }).waitFor();
  });

  it("signs out: the sign-in page again, and the old cookie no longer opens the API", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Token").waitFor();
    const status = await page.evaluate("fetch('/api/v1/repos').then((r) => r.status)");
    expect(status).toBe(401);
    await page.goto(at("#/repos/acme/app"));
    await page.getByLabel("Token").waitFor();
    expect(await page.content()).not.toContain("Roll back a failed deploy");
  });

  it("signed in as boris: his own receipts only, and a reader's 403 on a repository's receipts", async () => {
    await page.goto(at("#/receipts"));
    await page.getByLabel("Token").fill(server.tokens.boris);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("[data-user]").getAttribute("data-user")).toBe("boris");
    const mine = await server.api<{ items: ApiReceipt[] }>("boris", "GET", "/api/v1/receipts");
    await page.goto(at("#/receipts"));
    await page.locator("table.receipts tbody tr").first().waitFor();
    expect(await shownRows(page)).toEqual(mine.body.items.map(expectedRow));
    expect(await page.content()).not.toContain("anna-agent");
    await checkAxe("16-receipts-mine-boris");
    const refused = await server.api<{ error: { code: string; message: string } }>(
      "boris",
      "GET",
      "/api/v1/repos/acme/hidden/knowledge/receipts",
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    await page.goto(at("#/repos/acme/hidden/receipts"));
    const alert = page.locator("main [role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("forbidden");
    expect(await alert.textContent()).toContain(refused.body.error.message);
    expect(await page.locator("[data-forbidden]").textContent()).toContain("writers and admins");
    expect(await page.locator("table.receipts").count()).toBe(0);
    await checkAxe("17-receipts-repo-forbidden");
  });
});
