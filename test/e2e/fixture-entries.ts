/** Entry files the end-to-end tests commit into temp repositories. */

export const ROLLBACK_ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
export const MIGRATION_ID = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
export const UNREACHABLE_ID = "01921938-b600-7344-b7bb-b0d96211fc5a";

export const ROLLBACK = `---
id: ${ROLLBACK_ID}
origin: human
contract:
  - mechanism: on_query
    params:
      words: ["откат", "релиз"]
---

Откат релиза — это helm rollback, а не повторный деплой старого тега.

Повторный деплой прогоняет хуки заново и кладёт каталог.
`;

export const MIGRATION = `---
id: ${MIGRATION_ID}
contract:
  - mechanism: on_tool
    params:
      name: run_migration
---

Run production migrations with a lock timeout.

An ALTER TABLE waiting for a lock blocks every query behind it.
`;

export const UNREACHABLE = `---
id: ${UNREACHABLE_ID}
contract:
  - mechanism: on_path
    params:
      glob: "hooks/**"
---

The pre-receive hook must never commit.
`;

/** The `**Team letterhead**` file: YAML reads `*` as an alias — the file is skipped with path and line. */
export const LETTERHEAD = `---
**Team letterhead**
---

Dear team,
`;

/** The knowledge files of a typical test repository. */
export function knowledgeFiles(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ".gitriver/knowledge/deploy-rollback.md": ROLLBACK,
    ".gitriver/knowledge/migrations.md": MIGRATION,
    ".gitriver/knowledge/pre-receive.md": UNREACHABLE,
    ...extra,
  };
}
