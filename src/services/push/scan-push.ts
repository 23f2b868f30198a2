import { type Diagnostic, makeDiagnostic } from "../../core/entry/diagnostic.js";
import type { BatchFile } from "../../core/entry/parse-batch.js";
import { findPromptInjection } from "../../core/safety/prompt-injection.js";
import { scanSecretsMany } from "../safety/scan-secrets.js";

const WHAT = {
  override: { en: "ignore its earlier instructions", ru: "игнорировать прежние инструкции" },
  exfiltrate: { en: "send data elsewhere", ru: "отправить данные на сторону" },
} as const;

/**
 * The secret guard's part of the push report (seed 004, "Разбор при отправке"): each
 * changed knowledge file of a push, as read for the parse, is scanned for credentials
 * (`scanSecretsMany`: secretlint's recommended preset and Lore's rules, one pass a batch) and for
 * prompt-injection phrases (`findPromptInjection`). Each hit is a remark — an `info`
 * diagnostic `possible_secret` (`{rule}`, the line; never the secret) or
 * `possible_prompt_injection` (the line, what the text tells the model) — printed with the
 * report; the push is never refused for it and nothing is written. Only the files the
 * push changed are scanned (the caller passes its batches).
 *
 * @param files - files of one parse batch: repository path and bytes (at most 64 KB each).
 * @param into - remarks by path, added to.
 */
export async function scanPushFiles(
  files: readonly BatchFile[],
  into: Map<string, Diagnostic[]>,
): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const texts = files.map((file) => decoder.decode(file.bytes));
  const secrets = await scanSecretsMany(texts);
  for (const [i, file] of files.entries()) {
    const text = texts[i] ?? "";
    const remarks: Diagnostic[] = [];
    for (const finding of secrets[i] ?? []) {
      remarks.push(
        makeDiagnostic("possible_secret", {
          path: file.path,
          line: finding.line,
          params: { rule: finding.rule },
        }),
      );
    }
    for (const finding of findPromptInjection(text)) {
      const what = WHAT[finding.kind];
      remarks.push(
        makeDiagnostic("possible_prompt_injection", {
          path: file.path,
          line: finding.line,
          params: { what: what.en, what_ru: what.ru },
        }),
      );
    }
    if (remarks.length === 0) continue;
    remarks.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    into.set(file.path, [...(into.get(file.path) ?? []), ...remarks]);
  }
}
