import { describe, expect, it } from "vitest";
import { passwordOf, pgServerDbError, redactDatabaseUrl } from "./pg-db-error.js";

describe("a PostgreSQL URL fit to print", () => {
  it("hides the password of the user part and of a password= parameter", () => {
    expect(redactDatabaseUrl("postgres://lore:s3cret@db:5432/lore")).toBe(
      "postgres://lore:***@db:5432/lore",
    );
    expect(redactDatabaseUrl("postgresql://lore@db/lore?sslmode=require&password=s3cret&x=1")).toBe(
      "postgresql://lore@db/lore?sslmode=require&password=***&x=1",
    );
    expect(redactDatabaseUrl("postgres://lore@db/lore?PASSWORD=s3cret")).toBe(
      "postgres://lore@db/lore?PASSWORD=***",
    );
    expect(passwordOf("postgres://lore@db/lore?password=s%33cret")).toBe("s3cret");
  });
});

describe("pgServerDbError", () => {
  it("says a busy pool's wait ran out, not that the database cannot be reached", () => {
    const error = pgServerDbError(new Error("timeout exceeded when trying to connect"));
    expect(error.code).toBe("database_unavailable");
    expect(error.data).toEqual({ pg: "pool_wait" });
    expect(error.message).toContain("no connection of the pool came free in time");
    const refused = pgServerDbError(
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    );
    expect(refused.data).toEqual({ pg: "ECONNREFUSED" });
  });
});
