/**
 * Configuration defaults that need no environment, in a module of their own so that a run
 * with no configuration file never loads the file's parser (zod, smol-toml: `config.ts`).
 */

/** Defaults that need no environment: the server address and its SSH port. */
export const CONFIG_DEFAULTS = { host: "127.0.0.1", port: 7377, sshPort: 7378 } as const;

/** The hard time budget of one agent-hook run, ms, node start included (`[hooks] budget_ms`). */
export const DEFAULT_HOOK_BUDGET_MS = 300;

/** Days a load receipt is kept before it is pruned (`[receipts] keep_days`). */
export const DEFAULT_RECEIPT_KEEP_DAYS = 30;
