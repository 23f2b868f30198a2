/**
 * Configuration defaults that need no environment, in a module of their own so that a run
 * with no configuration file never loads the file's parser (zod, smol-toml: `config.ts`).
 */

/** Defaults that need no environment: the server address and its SSH port. */
export const CONFIG_DEFAULTS = { host: "127.0.0.1", port: 7377, sshPort: 7378 } as const;
