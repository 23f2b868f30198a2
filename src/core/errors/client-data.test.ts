import { describe, expect, it } from "vitest";
import { clientData } from "./client-data.js";
import { LoreError } from "./lore-error.js";

describe("clientData", () => {
  it("keeps a refusal's details and hides a server fault's", () => {
    const refused = new LoreError("invalid_input", { reason: "x" }, { data: { field: "id" } });
    expect(clientData(refused)).toEqual({ field: "id" });
    const fault = new LoreError(
      "git_failed",
      { reason: "the repository's folder does not exist (moved or removed)" },
      { data: { args: ["rev-parse", "--verify"], stderr: "fatal: /srv/lore" } },
    );
    expect(fault.kind).toBe("internal");
    expect(clientData(fault)).toBeUndefined();
    expect(clientData(new LoreError("invalid_input", { reason: "x" }))).toBeUndefined();
  });

  it("shows of a fault only the engine's error code, never its text", () => {
    const busy = new LoreError(
      "index_failed",
      { reason: "busy" },
      { data: { sqlite: "SQLITE_BUSY", detail: "database is locked: /srv/lore/index.db" } },
    );
    expect(clientData(busy)).toEqual({ sqlite: "SQLITE_BUSY" });
  });
});
