import { describe, expect, it } from "vitest";
import { lookAlikes, secretShapes } from "../../../test/helpers/secret-shapes.js";
import { isLoreError } from "../../core/errors/lore-error.js";
import { refuseSecrets, scanSecrets, scanSecretsMany } from "./scan-secrets.js";

describe("scanSecrets: credential shapes are found", () => {
  it("the table holds at least 20 shapes", () => {
    expect(secretShapes().length).toBeGreaterThanOrEqual(20);
  });
  for (const shape of secretShapes()) {
    it(shape.name, async () => {
      const text = `# Notes\n\nSome context.\n${shape.text}\nMore text.\n`;
      const findings = await scanSecrets(text);
      expect(findings.length, JSON.stringify(findings)).toBeGreaterThan(0);
      expect(findings.some((f) => f.rule.startsWith(shape.rule))).toBe(true);
      // The match is on one of the shape's lines (it starts on line 4 of the text).
      const last = 3 + shape.text.split("\n").length;
      expect(findings[0]?.line).toBeGreaterThanOrEqual(4);
      expect(findings[0]?.line).toBeLessThanOrEqual(last);
    });
  }
});

describe("scanSecrets: look-alikes pass", () => {
  it("the table holds at least 20 look-alikes", () => {
    expect(lookAlikes().length).toBeGreaterThanOrEqual(20);
  });
  for (const look of lookAlikes()) {
    it(look.name, async () => {
      expect(await scanSecrets(`# Notes\n\n${look.text}\n`)).toEqual([]);
    });
  }
});

describe("refuseSecrets", () => {
  it("refuses with secret_detected naming the line and rule, never the secret", async () => {
    const shape = secretShapes().find((s) => s.name === "GitHub classic token");
    if (shape === undefined) throw new Error("table changed");
    const secret = shape.text.replace("token: ", "");
    const error = await refuseSecrets(`line one\nline two\n${shape.text}\n`).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isLoreError(error)) throw new Error(`not refused: ${String(error)}`);
    expect(error.code).toBe("secret_detected");
    expect(error.data).toEqual({ line: 3, rule: "@secretlint/secretlint-rule-github" });
    expect(error.message).toContain("line 3");
    expect(error.message).toContain("@secretlint/secretlint-rule-github");
    expect(JSON.stringify({ m: error.message, t: error.text, d: error.data })).not.toContain(
      secret.slice(4),
    );
  });

  it("lets a clean text through", async () => {
    await expect(refuseSecrets("Use `npm ci`, not `npm install`, in CI.\n")).resolves.toBe(
      undefined,
    );
    await expect(refuseSecrets("")).resolves.toBe(undefined);
  });

  it("reports each offending line once per rule, in line order", async () => {
    const [a, b] = secretShapes().filter((s) => s.rule.endsWith("github"));
    const findings = await scanSecrets(`${b?.text}\nclean\n${a?.text}\n`);
    expect([...new Set(findings.map((f) => f.line))]).toEqual([1, 3]);
    const keys = findings.map((f) => `${f.line} ${f.rule}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("scanSecretsMany (one pass for a push's files)", () => {
  it("finds per file what scanSecrets finds, lines counted within each file", async () => {
    const texts = [
      ...secretShapes().map((shape) => `# Notes\n\n${shape.text}\n`),
      ...lookAlikes().map((look) => `# Notes\n\n${look.text}\n`),
    ].filter((text) => !text.includes('"type": "service_account"')); // whole-JSON rule: see the doc
    const many = await scanSecretsMany(texts);
    const one = await Promise.all(texts.map((text) => scanSecrets(text)));
    expect(many).toEqual(one);
  });

  it("a disable block left open in one file does not hide the next file's secret", async () => {
    const token = secretShapes().find((s) => s.name === "GitHub classic token")?.text ?? "";
    const [first, second] = await scanSecretsMany([
      "<!-- secretlint-disable -->\nexample text\n",
      `line\n${token}\n`,
    ]);
    expect(first).toEqual([]);
    expect(second?.map((f) => f.line)).toContain(2);
  });

  it("empty input gives empty lists", async () => {
    expect(await scanSecretsMany([])).toEqual([]);
    expect(await scanSecretsMany(["", " \n"])).toEqual([[], []]);
  });
});
