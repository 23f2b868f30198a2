/**
 * The secret guard on the federation's writes (seed 004, "Как знание выходит наружу"):
 * `knowledge_ingest` (the current project's `.wiki/` and another project's through the
 * forge) and `tasks_create`, through a real MCP SDK client against a local forge of real
 * git repositories. A credential is `secret_detected` `{line, rule}`, the secret is not
 * echoed, and nothing lands: no page, no index or log line, no commit, no task, no row.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { secretShapes } from "../helpers/secret-shapes.js";
import { connectFederation, type FederationClient } from "./federation-client.js";

const STATUS = "# Tasks\n\n| slug | status | next |\n| --- | --- | --- |\n| old | done | — |\n";
let tmp: string;
let project: string;
let forge: TestForge;
let fed: FederationClient;

const shape = (name: string): string => {
  const found = secretShapes().find((s) => s.name === name);
  if (found === undefined) throw new Error(`no shape ${name}`);
  return found.text;
};

async function commits(repo: string): Promise<number> {
  const out = await runGit({ cwd: forge.dir(repo), args: ["rev-list", "--count", "--all"] });
  return Number(out.stdout.toString("utf8").trim());
}

function refusal(result: { isError?: boolean; content: { text: string }[] }) {
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[0]?.text ?? "{}").error as {
    code: string;
    message: string;
    data: { line: number; rule: string };
  };
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "lore-guard-fed-"));
  project = join(tmp, "node-utils");
  await mkdir(project, { recursive: true });
  forge = await makeLocalForge({
    docs: { ".wiki/index.md": "# Wiki Index\n\n## Concepts\n\n<!-- (none yet) -->\n" },
    tasks: { ".tasks/STATUS.md": STATUS },
  });
  fed = await connectFederation({
    forgeRoot: forge.root,
    cacheFile: join(tmp, "cache.json"),
    sharedWiki: null,
    projectDir: project,
  });
});

afterAll(async () => {
  await fed?.close();
  await forge?.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

describe("knowledge_ingest", () => {
  it("a page for this project's .wiki/ holding a key is refused; no .wiki/ is made", async () => {
    const error = refusal(
      await fed.call("knowledge_ingest", {
        title: "Deploy keys",
        type: "concepts",
        body: `How the deploy job signs in:\n\n${shape("GitLab personal access token")}\n`,
      }),
    );
    expect(error.code).toBe("secret_detected");
    expect(error.data.rule).toBe("@secretlint/secretlint-rule-gitlab");
    // The line of the page's file: the frontmatter (title, type, updated) comes first.
    expect(error.data.line).toBeGreaterThan(3);
    expect(error.message).not.toContain("glpat-");
    expect(existsSync(join(project, ".wiki"))).toBe(false);
  });

  it("a page through the forge holding a key is refused; the repository gets no commit", async () => {
    const before = await commits("docs");
    const error = refusal(
      await fed.call("knowledge_ingest", {
        title: "Stripe",
        type: "concepts",
        body: `Payments:\n\n${shape("Stripe restricted live key")}\n`,
        target_project: "docs",
      }),
    );
    expect(error).toMatchObject({ code: "secret_detected", data: { rule: "lore/stripe-key" } });
    expect(await commits("docs")).toBe(before);
    expect(await forge.forge.getRawFile("u", "docs", ".wiki/concepts/stripe.md")).toBeNull();
  });

  it("a clean page is written (the guard lets knowledge through)", async () => {
    const ok = await fed.call("knowledge_ingest", {
      title: "Deploy",
      type: "concepts",
      body: "Set GITHUB_TOKEN=$GITHUB_TOKEN in the job; the token comes from the vault.\n",
    });
    expect(ok.isError, ok.content[0]?.text).toBeFalsy();
    expect(existsSync(join(project, ".wiki/concepts/deploy.md"))).toBe(true);
  });
});

describe("tasks_create", () => {
  it("a task body holding a key is refused; no task file, STATUS.md unchanged, no commit", async () => {
    const before = await commits("tasks");
    const error = refusal(
      await fed.call("tasks_create", {
        target_project: "tasks",
        body: `Rotate the Slack bot\n\nThe current one is ${shape("Slack bot token")}\n`,
      }),
    );
    expect(error).toMatchObject({
      code: "secret_detected",
      data: { line: 3, rule: "@secretlint/secretlint-rule-slack" },
    });
    expect(error.message).not.toContain("xoxb-");
    expect(await commits("tasks")).toBe(before);
    expect(await forge.forge.getRawFile("u", "tasks", ".tasks/STATUS.md")).toBe(STATUS);
    expect(await forge.forge.getRawFile("u", "tasks", ".tasks/rotate-the-slack-bot.md")).toBeNull();
  });
});
