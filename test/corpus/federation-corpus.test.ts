/**
 * Corpus suite (federation, “Tests”, real input): the 13 LLM wikis of
 * `../shared/corpus/llm-wiki/` and the Russian LLM-wiki of `../shared/corpus/russian/`,
 * each made into a repository of a local forge (real git), synced, then asked.
 *
 * - As found: each wiki folder (`.wiki/`, `wiki/`, or the sample vault's `wiki/`) becomes
 *   the repository's `.wiki/`. Only one (olas) lists pages in the canonical layout (its
 *   `## Entities`); the others use tables, bold links, wikilinks or their own sections:
 *   ask_projects never crashes on them and `lore wiki check --all` reports what it could
 *   not read.
 * - Re-catalogued: five wikis whose pages sit in type folders get a second repository with
 *   the same pages and an index written by Lore's canonical writer (what `knowledge.ingest`
 *   would have made); the Russian wiki's pages are written into its repository through the
 *   forge by `knowledge.ingest` itself.
 * - A table of ask_projects queries with the hits chosen by reading the pages, each hit
 *   read back whole with get_from and compared with the corpus file.
 */
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalForge } from "../../src/adapters/local-forge/local-forge.js";
import { freshIndexMd, insertIndexEntry, WIKI_PAGE_TYPES } from "../../src/core/wiki/wiki-index.js";
import { pageTitle } from "../../src/core/wiki/wiki-page.js";
import { composeFederation } from "../../src/main/compose-federation.js";
import type { FederationPort } from "../../src/mcp/federation-port.js";
import { toolNames } from "../../src/mcp/tool-names.js";
import type { AskMatch, AskProjectResult } from "../../src/services/federation/ask-projects.js";
import { isolatedEnv, runLore } from "../e2e/run-lore.js";
import buildDist from "../global-setup.js";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { CORPUS_DIR, CORPUS_PRESENT } from "./corpus-files.js";

const LLM_WIKI = join(CORPUS_DIR, "llm-wiki");
const RUSSIAN = join(CORPUS_DIR, "russian", "matvej-melikhov__karpathy-llm-wiki");

/** Where each corpus wiki's folder is, relative to its source folder. */
function wikiFolder(source: string): string | null {
  for (const candidate of [".wiki", "wiki", join("examples", "sample-vault", "wiki")]) {
    if (existsSync(join(source, candidate))) return join(source, candidate);
  }
  return null;
}

/** Every regular file under `dir` (symbolic links left out), `/`-separated relative paths. */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      const info = lstatSync(full);
      if (info.isDirectory()) walk(full);
      else if (info.isFile()) out.set(relative(dir, full).split(sep).join("/"), readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

/** The title a re-catalogued page gets: frontmatter, else its first `# ` heading, else its name. */
function titleOf(text: string, slug: string): string {
  return pageTitle(text) ?? /^# (.+)$/m.exec(text)?.[1]?.trim() ?? slug;
}

const RECATALOGUED = [
  "agustincbajo__Coral",
  "kyundae-kim__docmesh-py-core",
  "LabOnoM__AROS_Pipeline_Factory",
  "iromu__TradingAgents",
  "AgriciDaniel__claude-obsidian",
];
const canonical = (name: string) => `${name}--canonical`;
const RU = "karpathy-llm-wiki-ru";

/** The query table: by reading the pages (titles and index lines) we expect these slugs. */
const QUERIES: {
  query: string;
  projects: string[];
  types?: string[];
  limit?: number;
  hits: Record<string, string[]>;
}[] = [
  {
    query: "query",
    projects: ["Kontsedal__olas"],
    hits: { Kontsedal__olas: ["entities/query-client"] },
  },
  {
    query: "lifecycle",
    projects: ["Kontsedal__olas"],
    hits: { Kontsedal__olas: ["entities/ctx", "entities/controller-instance"] },
  },
  {
    query: "runner",
    projects: [canonical("agustincbajo__Coral")],
    hits: { [canonical("agustincbajo__Coral")]: ["concepts/mock-runner", "concepts/runner-trait"] },
  },
  {
    query: "Karpathy",
    projects: [canonical("agustincbajo__Coral")],
    hits: {
      [canonical("agustincbajo__Coral")]: [
        "concepts/karpathy-wiki",
        "sources/karpathy-llm-wiki-gist",
      ],
    },
  },
  {
    query: "wikiindex",
    projects: [canonical("agustincbajo__Coral")],
    hits: { [canonical("agustincbajo__Coral")]: ["entities/wiki-index"] },
  },
  {
    query: "keycloak",
    projects: [canonical("kyundae-kim__docmesh-py-core")],
    hits: {
      [canonical("kyundae-kim__docmesh-py-core")]: [
        "entities/keycloak",
        "concepts/keycloak-auth-flow",
        "concepts/keycloak-provisioning",
      ],
    },
  },
  {
    query: "헬스체크",
    projects: [canonical("kyundae-kim__docmesh-py-core")],
    hits: { [canonical("kyundae-kim__docmesh-py-core")]: ["concepts/health-check-pattern"] },
  },
  {
    query: "protocol",
    projects: [canonical("LabOnoM__AROS_Pipeline_Factory")],
    hits: {
      [canonical("LabOnoM__AROS_Pipeline_Factory")]: [
        "concepts/citation_before_claim_protocol",
        "concepts/cross_pipeline_compatibility_protocol",
      ],
    },
  },
  {
    query: "human-in-the-loop",
    projects: [canonical("iromu__TradingAgents")],
    hits: { [canonical("iromu__TradingAgents")]: ["concepts/human-in-the-loop"] },
  },
  {
    query: "sqlite",
    projects: [
      canonical("kyundae-kim__docmesh-py-core"),
      canonical("agustincbajo__Coral"),
      "Kontsedal__olas",
    ],
    hits: {
      [canonical("kyundae-kim__docmesh-py-core")]: ["entities/sqlite"],
      [canonical("agustincbajo__Coral")]: [],
      Kontsedal__olas: [],
    },
  },
  {
    query: "source-grounded",
    projects: [canonical("AgriciDaniel__claude-obsidian")],
    hits: { [canonical("AgriciDaniel__claude-obsidian")]: ["concepts/Source-grounded notes"] },
  },
  { query: "ТЯЖЕЛЫЙ", projects: [RU], hits: { [RU]: ["concepts/snapshot"] } },
  { query: "дедуп", projects: [RU], hits: { [RU]: ["concepts/ingest/dedup"] } },
  { query: "архитектура", projects: [RU], hits: { [RU]: ["concepts/architecture"] } },
  {
    query: "",
    projects: [canonical("agustincbajo__Coral")],
    limit: 3,
    hits: {
      [canonical("agustincbajo__Coral")]: [
        "entities/page",
        "entities/wiki-index",
        "concepts/embeddings",
      ],
    },
  },
];

if (!CORPUS_PRESENT) {
  process.stderr.write(`federation corpus suite skipped: no corpus at ${CORPUS_DIR}\n`);
}

describe.skipIf(!CORPUS_PRESENT)("federation over the real wikis of the corpus", () => {
  let forge: TestForge;
  let tmp: string;
  let port: FederationPort;
  const asFound: string[] = [];
  /** Corpus text of each served page, by `project/slug`. */
  const sourceText = new Map<string, string>();

  beforeAll(async () => {
    buildDist();
    tmp = mkdtempSync(join(tmpdir(), "lore-fed-corpus-"));
    forge = await makeLocalForge();
    for (const name of readdirSync(LLM_WIKI).sort()) {
      const folder = wikiFolder(join(LLM_WIKI, name));
      if (folder === null) continue;
      const files = filesUnder(folder);
      const repo: Record<string, Buffer> = {};
      for (const [path, bytes] of files) repo[`.wiki/${path}`] = bytes;
      await forge.add(name, repo);
      asFound.push(name);
      if (name === "Kontsedal__olas") {
        for (const [path, bytes] of files)
          sourceText.set(`${name}/${path.replace(/\.md$/, "")}`, bytes.toString("utf8"));
      }
      if (RECATALOGUED.includes(name)) {
        let index = freshIndexMd();
        const pages: Record<string, Buffer | string> = {};
        for (const [path, bytes] of files) {
          const type = path.split("/")[0] ?? "";
          if (!(WIKI_PAGE_TYPES as readonly string[]).includes(type) || !path.endsWith(".md"))
            continue;
          if (path.endsWith("/_index.md") || path.endsWith("/index.md")) continue;
          const slug = path.slice(0, -".md".length);
          const text = bytes.toString("utf8");
          index = insertIndexEntry(index, { slug, title: titleOf(text, slug) });
          pages[`.wiki/${path}`] = bytes;
          sourceText.set(`${canonical(name)}/${slug}`, text);
        }
        await forge.add(canonical(name), { ...pages, ".wiki/index.md": index });
      }
    }
    // The Russian wiki: an empty repository, its pages written by knowledge.ingest through the forge.
    await forge.add(RU, { "README.md": readFileSync(join(RUSSIAN, "README.md")) });
    port = composeFederation({
      forge: { forge: new LocalForge({ root: forge.root }), owner: "corpus", where: forge.root },
      cacheFile: join(tmp, "cache.json"),
      sharedWiki: null,
      projectDir: tmp,
      machine: "corpus",
      names: toolNames("underscore"),
    });
    const ruPages: { file: string; slug: string }[] = [
      { file: "ARCHITECTURE.md", slug: "architecture" },
      ...readdirSync(join(RUSSIAN, ".claude", "skills")).flatMap((skill) => {
        const refs = join(RUSSIAN, ".claude", "skills", skill, "references");
        return [
          { file: `.claude/skills/${skill}/SKILL.md`, slug: skill },
          ...(existsSync(refs)
            ? readdirSync(refs).map((r) => ({
                file: `.claude/skills/${skill}/references/${r}`,
                slug: `${skill}/${r.replace(/\.md$/, "")}`,
              }))
            : []),
        ];
      }),
    ];
    for (const page of ruPages) {
      const text = readFileSync(join(RUSSIAN, page.file), "utf8");
      const body = text.replace(/^---\n[\s\S]*?\n---\n/, "");
      const title = /^# (.+)$/m.exec(body)?.[1]?.trim() ?? page.slug;
      await port.ingest(
        { title, type: "concepts", body, slug: page.slug, target_project: RU },
        "corpus",
      );
      sourceText.set(`${RU}/concepts/${page.slug}`, body);
    }
    const summary = await port.sync("corpus");
    expect(summary.errors).toEqual([]);
  });

  afterAll(async () => {
    await forge?.cleanup();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("makes every corpus wiki a project; sync caches each index", async () => {
    expect(asFound).toHaveLength(13);
    const status = await port.status("corpus");
    const byName = new Map(status.projects.map((p) => [p.name, p]));
    for (const name of asFound) {
      const hasIndex = existsSync(join(wikiFolder(join(LLM_WIKI, name)) ?? "", "index.md"));
      expect(byName.get(name)?.has_wiki ?? false, name).toBe(hasIndex);
    }
    expect(byName.get("Kontsedal__olas")?.wiki_pages).toBe(6);
    expect(byName.get(RU)?.wiki_pages).toBeGreaterThanOrEqual(15);
    for (const name of RECATALOGUED)
      expect(byName.get(canonical(name))?.wiki_pages, name).toBeGreaterThan(2);
  });

  it("ask_projects never crashes on the wikis as found: matches, no wiki, or malformed", async () => {
    const answer = await port.askProjects({ query: "", projects: asFound, limit: 20 }, "corpus");
    expect(answer.results.map((r) => r.project)).toEqual(asFound);
    const outcome = (r: AskProjectResult) =>
      "error" in r ? r.error.replace(/:.*$/, "") : `${r.matches.length} match(es)`;
    const seen = Object.fromEntries(answer.results.map((r) => [r.project, outcome(r)]));
    expect(seen.Kontsedal__olas).toBe("6 match(es)");
    // datum-rs keeps `_index.md` files, no `index.md` and no task board: sync skips it (seed
    // 001), and, synced, it answers that it has no wiki (not that it is unknown).
    expect(seen["average-gary__datum-rs"]).toBe("no wiki — repo has no .wiki/index.md");
    // Its index has the sections but lists no page: said so, never `matches: []`.
    expect(seen["SamurAIGPT__llm-wiki-agent"]).toBe(
      "wiki index empty — .wiki/index.md lists no pages",
    );
    expect(seen["kyundae-kim__docmesh-py-core"]).toBe("wiki index malformed");
    for (const r of answer.results)
      if ("matches" in r) for (const m of r.matches) expect(m.snippet).not.toBe("(fetch failed)");
  });

  it.each(QUERIES)("ask_projects “$query” finds what the pages say", async (row) => {
    const input = {
      query: row.query,
      projects: row.projects,
      ...(row.limit ? { limit: row.limit } : {}),
    };
    const answer = await port.askProjects(input, "corpus");
    for (const result of answer.results) {
      expect(
        "matches" in result,
        `${result.project}: ${"error" in result ? result.error : ""}`,
      ).toBe(true);
      const matches = (result as { matches: AskMatch[] }).matches;
      expect(matches.map((m) => m.slug)).toEqual(row.hits[result.project]);
      for (const match of matches) {
        expect(match.snippet.length).toBeGreaterThan(0);
        expect(match.snippet).not.toBe("(fetch failed)");
        const page = await port.getFrom(result.project, match.slug, "corpus");
        const expected = sourceText.get(`${result.project}/${match.slug}`);
        if (result.project === RU) expect(page.body).toContain(expected?.trim().slice(0, 200));
        else expect(page.body).toBe(expected);
      }
    }
  });

  it("`lore wiki check --all` reports what the parser could not read, per wiki", async () => {
    const { env, cleanup } = isolatedEnv();
    try {
      const config = join(tmp, "lore.toml");
      writeFileSync(
        config,
        `[forge]\nkind = "local"\nroot = '${forge.root}'\n\n[projects]\ncache = '${join(tmp, "cache.json")}'\n`,
      );
      const run = await runLore(["wiki", "check", "--all", "--config", config], { cwd: tmp, env });
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(run.code).toBe(7);
      const out = run.stdout;
      expect(out).toMatch(/^Kontsedal__olas: 6 page\(s\) read, \d+ line\(s\) not read$/m);
      expect(out).toMatch(/\[link_outside_type_section\]/);
      expect(out).toMatch(
        /^kyundae-kim__docmesh-py-core: 0 page\(s\) read, \d+ line\(s\) not read$/m,
      );
      expect(out).toMatch(/\[wikilink\]/);
      expect(out).toMatch(/^agustincbajo__Coral: 0 page\(s\) read, \d+ line\(s\) not read$/m);
      expect(out).toMatch(/\[table_row\]/);
      expect(out).toMatch(
        /^agustincbajo__Coral--canonical: \d+ page\(s\) read, 0 line\(s\) not read$/m,
      );
      const json = await runLore(["wiki", "check", "--all", "--json", "--config", config], {
        cwd: tmp,
        env,
      });
      const reports = JSON.parse(json.stdout) as { name: string; report: { unread: unknown[] } }[];
      expect(reports.length).toBeGreaterThanOrEqual(12);
    } finally {
      cleanup();
    }
  });

  it("the non-canonical wikis' own files never crash the page reader (get_from of every file)", async () => {
    const cached = new Set((await port.status("corpus")).projects.map((p) => p.name));
    for (const name of asFound) {
      const files = filesUnder(wikiFolder(join(LLM_WIKI, name)) ?? "");
      if (!cached.has(name)) {
        await expect(port.getFrom(name, "concepts/x", "corpus")).rejects.toMatchObject({
          code: "project_unknown",
        });
        continue;
      }
      for (const path of [...files.keys()].filter((p) => p.endsWith(".md")).slice(0, 10)) {
        const page = await port.getFrom(name, path.slice(0, -3), "corpus");
        expect(page.body).toBe(files.get(path)?.toString("utf8"));
      }
    }
  });
});
