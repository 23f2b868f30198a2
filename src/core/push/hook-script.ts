/**
 * The text of Lore's `pre-receive` and `post-receive` hook scripts (seed 004, "Разбор при
 * отправке"). Pure. A script is a few lines of `sh` that exec the absolute `node` and the
 * absolute `dist/cli/main.js` with everything embedded (index file, data folder,
 * configuration file), so it works under `git http-backend`'s cleaned environment, inside
 * another git server's hooks folder (Gitea, GitLab), and without `lore serve` running.
 */

/** The two hooks Lore installs. */
export const LORE_HOOKS = ["pre-receive", "post-receive"] as const;

/** One of {@link LORE_HOOKS}. */
export type LoreHook = (typeof LORE_HOOKS)[number];

/**
 * Where a git server runs a repository's hooks from: `plain` — git's own `hooks/`
 * (`lore serve`, a bare repository served by `git http-backend` or sshd); `gitlab` — the
 * repository's `custom_hooks/` (GitLab server hooks); `gitea` — `hooks/<hook>.d/` (Gitea
 * runs every script there after its own hook).
 */
export type HookLayout = "plain" | "gitlab" | "gitea";

/** The layouts, for argument checks. */
export const HOOK_LAYOUTS: readonly HookLayout[] = ["plain", "gitlab", "gitea"];

/**
 * The file of one hook inside the repository, by layout.
 *
 * @returns a path relative to the bare repository, `/`-separated.
 */
export function hookFile(hook: LoreHook, layout: HookLayout = "plain"): string {
  if (layout === "gitlab") return `custom_hooks/${hook}`;
  if (layout === "gitea") return `hooks/${hook}.d/lore`;
  return `hooks/${hook}`;
}

/** The line that marks a hook as Lore's: such a hook may be rewritten. */
export const HOOK_MARK = "# lore-hook: parse on push (written by `lore hook install`)";

/**
 * The exit code of `lore hook pre-receive` when branch protection refuses the push (the
 * code of the `forbidden` kind); the script turns it into git's refusal (exit 1). Every
 * other outcome — a crash, a missing node or Lore — is acceptance (a parse never refuses),
 * unless the repository holds {@link PROTECTED_MARKER}: then protection fails closed.
 */
export const REFUSED_EXIT_CODE = 5;

/**
 * The marker file, in the bare repository's folder, that says the repository has branch
 * protection rules (written and removed by `services/push/protection-marker.ts` whenever
 * rules change and at `lore serve` start). The `pre-receive` script reads it when Lore's
 * hook process cannot decide — `node` or `main.js` gone, the process crashed or exited with
 * a code other than 0 and {@link REFUSED_EXIT_CODE} — and then refuses the push
 * (`branch_protected`) instead of letting it through unchecked.
 */
export const PROTECTED_MARKER = "lore-protected";

/**
 * The refusal line the `pre-receive` script prints when protection fails closed (see
 * {@link PROTECTED_MARKER}), by language; ends with the code `[branch_protected]`.
 */
export const FAIL_CLOSED_LINE = {
  en: "lore: this repository has protected branches and the Lore pre-receive hook could not check the push (node or Lore missing, or the hook failed); the push is refused (run lore hook install again, or see <data>/logs/hooks.log) [branch_protected]",
  ru: "lore: в этом репозитории есть защищённые ветки, а хук pre-receive Lore не смог проверить отправку (нет node или Lore, или хук упал); отправка отклонена (запустите lore hook install заново или смотрите <data>/logs/hooks.log) [branch_protected]",
} as const;

/** What a hook script embeds; every path absolute. */
export interface HookScriptOptions {
  /** The Node.js binary (`process.execPath`). */
  node: string;
  /** Lore's `dist/cli/main.js`. */
  main: string;
  /** The index file (becomes `LORE_DB`). */
  database: string;
  /** The server's data folder (`--data`): the store, the log. */
  data: string;
  /** The configuration file (becomes `LORE_CONFIG`); `null` for none (`LORE_CONFIG` emptied). */
  config: string | null;
  /** The repository's index name (`--name owner/name`); absent: found from the folder. */
  name?: string;
}

/** A value quoted for `sh`: inside single quotes, each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The script of one hook.
 *
 * @param hook - `pre-receive` or `post-receive`.
 * @param options - see {@link HookScriptOptions}.
 * @returns the script's text, ending in a newline.
 */
export function hookScript(hook: LoreHook, options: HookScriptOptions): string {
  const args = [
    shellQuote(options.node),
    shellQuote(options.main),
    "hook",
    hook,
    "--data",
    shellQuote(options.data),
  ];
  if (options.name !== undefined) args.push("--name", shellQuote(options.name));
  const node = shellQuote(options.node);
  const main = shellQuote(options.main);
  const head = [
    "#!/bin/sh",
    HOOK_MARK,
    `LORE_DB=${shellQuote(options.database)}`,
    `LORE_CONFIG=${options.config === null ? "''" : shellQuote(options.config)}`,
    "export LORE_DB LORE_CONFIG",
  ];
  const missing = `echo "lore: ${hook}: node or Lore is not at the path this hook was written with; the push is accepted without the parse (run lore hook install again)" >&2`;
  if (hook === "post-receive") {
    return [
      ...head,
      `if [ -x ${node} ] && [ -f ${main} ]; then`,
      `  ${args.join(" ")}`,
      "  exit 0",
      "fi",
      missing,
      "exit 0",
      "",
    ].join("\n");
  }
  // pre-receive: only the refusal code refuses, but a repository with protected branches
  // (the marker) also refuses when the hook could not decide: protection fails closed.
  return [
    ...head,
    "lore_refuse_unchecked() {",
    `  if [ -f "\${GIT_DIR:-.}/${PROTECTED_MARKER}" ]; then`,
    `    case "\${LORE_PUSHER_LANG:-\${LORE_LANG:-}}" in`,
    `      ru*) echo ${shellQuote(FAIL_CLOSED_LINE.ru)} >&2 ;;`,
    `      *) echo ${shellQuote(FAIL_CLOSED_LINE.en)} >&2 ;;`,
    "    esac",
    "    exit 1",
    "  fi",
    "}",
    `if [ -x ${node} ] && [ -f ${main} ]; then`,
    `  ${args.join(" ")}`,
    "  lore_status=$?",
    `  [ "$lore_status" -eq ${REFUSED_EXIT_CODE} ] && exit 1`,
    '  [ "$lore_status" -eq 0 ] && exit 0',
    "  lore_refuse_unchecked",
    "  exit 0",
    "fi",
    "lore_refuse_unchecked",
    missing,
    "exit 0",
    "",
  ].join("\n");
}
