import type { SecretLintRuleCreator } from "@secretlint/types";
import {
  findHighEntropyAssignments,
  HIGH_ENTROPY_ASSIGNMENT_RULE,
  type SecretSpan,
} from "../../core/safety/high-entropy-assignment.js";
import { findStripeKeys, STRIPE_KEY_RULE } from "../../core/safety/stripe-key.js";

/**
 * Wraps one of Lore's pure finders as a secretlint rule, so it runs in the same
 * `lintSource` pass as the recommended preset and obeys the same
 * `secretlint-disable-line` / `secretlint-disable-next-line` comments that mark an example.
 * The message never holds the matched text.
 */
function spanRule(id: string, what: string, find: (text: string) => SecretSpan[]) {
  const messages = { FOUND: { en: () => `found ${what}` } };
  const rule: SecretLintRuleCreator = {
    messages,
    meta: {
      id,
      type: "scanner",
      recommended: true,
      supportedContentTypes: ["text"],
    },
    create(context) {
      const t = context.createTranslator(messages);
      return {
        file(source) {
          for (const span of find(source.content)) {
            context.report({ message: t("FOUND"), range: [span.start, span.end] });
          }
        },
      };
    },
  };
  return rule;
}

/**
 * Lore's rules run beside secretlint's recommended preset (see `core/safety/`):
 * `lore/high-entropy-assignment` and `lore/stripe-key`.
 */
export const LORE_SECRET_RULES: readonly SecretLintRuleCreator[] = [
  spanRule(
    HIGH_ENTROPY_ASSIGNMENT_RULE,
    "a high-entropy value assigned to a secret's name",
    findHighEntropyAssignments,
  ),
  spanRule(STRIPE_KEY_RULE, "a Stripe live key", findStripeKeys),
];
