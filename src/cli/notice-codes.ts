/**
 * The codes of the notices commands print on stderr that are not errors (the command goes
 * on); the README's "Notice and report codes" table lists each.
 */
export const NOTICE_CODES = [
  "lives_in_other_root",
  "worktree_differs",
  "project_config_untrusted",
  "trust_file_ignored",
  "marker_in_body",
] as const;
