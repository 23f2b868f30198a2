/**
 * Corpus suite (e): drafts over real texts (seed 004, "Как знание выходит наружу", "Пределы").
 * A sample of the corpus' real markdown files is written as drafts over the real REST API
 * of a team server, in both forms a client has: `{title, body}` with the file's text as the
 * body, and `{text}` with the file as it is (most real files are not Lore entries). Each
 * answer is a draft or a clear refusal — never a server error — and every draft written is
 * then delivered into the default branch in one commit, byte for byte, and read back from
 * the index as a file entry under the same id.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { createToken } from "../../src/services/access/tokens.js";
import { startTeamFixture, type TeamFixture } from "../http/team-fixture.js";
import { CORPUS_DIR, CORPUS_PRESENT, listCorpusFiles } from "./corpus-files.js";

if (!CORPUS_PRESENT) {
  process.stderr.write(`corpus drafts suite skipped: no corpus at ${CORPUS_DIR}\n`);
}

/** Every n-th corpus `.md` file: a few hundred real texts, under the listing's 1,000 cap. */
const SAMPLE_STEP = 5;
const REPO = "acme/private";
const DRAFTS = `/api/v1/repos/${REPO}/knowledge/drafts`;
/**
 * The refusals a real text may get: too large, not an entry (the `{text}` form), or holding
 * what the secret guard takes for a credential (real agent files paste example keys such as
 * `API_KEY=actual_secret_key_12345`; the refusal names the line and rule, never the value).
 */
const CLEAR_REFUSALS = ["draft_too_large", "invalid_entry", "invalid_input", "secret_detected"];

describe.skipIf(!CORPUS_PRESENT)("drafts written from real corpus texts", () => {
  let team: TeamFixture;
  let writer: string;
  let files: string[] = [];

  beforeAll(async () => {
    files = (await listCorpusFiles()).filter(
      (path, i) => path.endsWith(".md") && i % SAMPLE_STEP === 0,
    );
    team = await startTeamFixture();
    const anna = await team.store.getUser("anna");
    const repo = await team.store.getRepo(REPO);
    await team.store.grant({
      repoId: repo?.id ?? -1,
      subject: { kind: "user", id: anna?.id ?? -1 },
      level: "write",
    });
    await team.store.setDraftLimit({ kind: "user", id: anna?.id ?? -1 }, 10_000);
    writer = (
      await createToken(team.store, {
        user: "anna",
        scopes: ["knowledge:read", "knowledge:write", "repo:read", "repo:write"],
        now: Date.now(),
      })
    ).secret;
  }, 300_000);

  afterAll(async () => {
    await team?.close();
  });

  async function post(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await fetch(`${team.base}${DRAFTS}`, {
      method: "POST",
      headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  it("each real text is a draft or a clear refusal; every draft is delivered byte for byte", async () => {
    expect(files.length).toBeGreaterThan(100);
    const written = new Map<string, string>();
    const refusals = new Map<string, number>();
    for (const path of files) {
      const text = await readFile(join(CORPUS_DIR, path), "utf8");
      const asBody = await post({ branch: "main", title: path, body: text });
      const asText = await post({ branch: "main", text });
      for (const answer of [asBody, asText]) {
        if (answer.status === 201) {
          const draft = answer.body as { id: string; text: string; size: number };
          expect(draft.size).toBe(Buffer.byteLength(draft.text, "utf8"));
          expect(draft.size).toBeLessThanOrEqual(65_536);
          const parsed = parseEntry(draft.text, { mode: "strict" });
          expect(parsed.value?.entry.id, `${path}: ${JSON.stringify(parsed.diagnostics)}`).toBe(
            draft.id,
          );
          written.set(draft.id, draft.text);
          continue;
        }
        expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(400);
        const code = (answer.body.error as { code: string }).code;
        expect(CLEAR_REFUSALS, `${path}: ${code}`).toContain(code);
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
      }
    }
    // The {title, body} form takes nearly every real text; a raw file that is no entry is refused.
    expect(written.size).toBeGreaterThan(files.length * 0.9);

    const delivered = await fetch(`${team.base}${DRAFTS}/deliver`, {
      method: "POST",
      headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
      body: JSON.stringify({ branch: "main", mode: "same" }),
    });
    expect(delivered.status).toBe(200);
    const answer = (await delivered.json()) as { commits: string[]; delivered: string[] };
    expect(answer.commits).toHaveLength(1);
    expect(new Set(answer.delivered)).toEqual(new Set(written.keys()));

    const bare = bareRepoPath(team.data, REPO);
    for (const [id, text] of written) {
      const stored = await runGit({
        cwd: bare,
        args: ["cat-file", "blob"],
        values: [`main:.gitriver/knowledge/${id}.md`],
      });
      expect(stored.stdout.toString("utf8"), id).toBe(text);
    }
    const listing = await fetch(`${team.base}/api/v1/repos/${REPO}/knowledge`, {
      headers: { authorization: `Bearer ${writer}` },
    });
    const items = ((await listing.json()) as { items: { id: string; draft?: boolean }[] }).items;
    const asFiles = new Set(items.filter((item) => item.draft !== true).map((item) => item.id));
    for (const id of written.keys()) expect(asFiles.has(id), id).toBe(true);
    process.stderr.write(
      `corpus drafts: ${files.length} files, ${written.size} drafts delivered, refusals ${JSON.stringify(Object.fromEntries(refusals))}\n`,
    );
  }, 600_000);
});
