/**
 * The prompt-injection check of the parse report (seed 004, "Разбор при отправке"; memory
 * written by agents is read back into a model's context, so it is an injection surface):
 * text that tells the model to drop what it was told, or to send data away. A warning for
 * a reviewer — never a refusal — so it stays narrow: a phrase flags only when a command
 * verb meets its object —
 *
 * - *override*: ignore / disregard / forget / override / skip + (all / any / the / your)
 *   previous / prior / earlier / above / preceding / original + instructions / prompts /
 *   rules / directions / guidelines / context; and ignore / disregard / forget / override /
 *   bypass / reveal / print + the / your + system prompt / system message / system
 *   instructions;
 * - *exfiltrate*: send / post / upload / forward / transmit / exfiltrate / leak / e-mail /
 *   copy + (up to six words) + secrets / credentials / tokens / keys / passwords / env /
 *   `.env` / the conversation / chat history / system prompt / private or sensitive data +
 *   (up to six words) + to + a URL, an e-mail address, or "this/that/the following
 *   address/URL/endpoint/server/webhook";
 *
 * and the same in Russian (игнорируй / забудь / не обращай внимания на … предыдущие
 * инструкции; системный промпт; отправь / перешли / передай / загрузи / слей … токены /
 * ключи / пароли / секреты / переменные окружения / историю переписки … на/по адресу
 * URL или почту). Documentation that mentions these words without the command shape
 * ("the previous instructions were replaced", "ignore the previous test failure",
 * "send the report to the team channel", "tokens are sent to https://… by the SDK") does
 * not flag; see the phrase table in `prompt-injection.test.ts`.
 */
export interface InjectionFinding {
  /** 1-based line where the phrase starts. */
  line: number;
  /** `override` (drop earlier instructions) or `exfiltrate` (send data elsewhere). */
  kind: "override" | "exfiltrate";
}

const GAP = "(?:[\\s,]+[^\\s]+){0,6}?";
const W = (words: string) => `(?:${words})`;

const EN_OVERRIDE_VERB = W("ignore|disregard|forget|override|skip|drop|abandon");
const EN_EARLIER = W(
  "previous|prior|earlier|above|preceding|original|former|all\\s+the\\s+previous",
);
const EN_ORDERS = W(
  "instructions?|prompts?|rules|directions|guidelines|guidance|context|commands|orders",
);
const EN_SYSTEM = W(
  "system\\s+(?:prompt|message|instructions?)|developer\\s+(?:message|instructions?)",
);
const EN_TARGET = W(
  "https?://\\S+|[\\w.+-]+@[\\w-]+\\.[\\w.-]+|(?:this|that|the\\s+following|my|our)\\s+(?:address|url|endpoint|server|webhook|e-?mail|inbox|host)",
);
const EN_DATA = W(
  "secrets?|credentials?|tokens?|api\\s+keys?|keys|passwords?|env(?:ironment)?(?:\\s+variables)?|\\.env|ssh\\s+keys?|(?:the\\s+)?conversation|chat\\s+history|system\\s+prompt|(?:private|sensitive|confidential|user|customer)\\s+(?:data|files|information|details)|all\\s+(?:the\\s+)?(?:data|files)",
);
const EN_SEND = W("send|post|upload|forward|transmit|exfiltrate|leak|e-?mail|copy|pipe|curl");

const RU_OVERRIDE_VERB = W(
  "игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|отбрось(?:те)?|не\\s+(?:обращай(?:те)?\\s+внимания\\s+на|слушай(?:те)?|следуй(?:те)?|выполняй(?:те)?)",
);
const RU_EARLIER = W(
  "предыдущ\\p{L}*|прежн\\p{L}*|прошл\\p{L}*|ранее\\s+данн\\p{L}*|вышеуказанн\\p{L}*|первоначальн\\p{L}*|все\\s+предыдущ\\p{L}*",
);
const RU_ORDERS = W(
  "инструкц\\p{L}*|указани\\p{L}*|правил\\p{L}*|команд\\p{L}*|промпт\\p{L}*|подсказк\\p{L}*",
);
const RU_SYSTEM = W(
  "системн\\p{L}*\\s+(?:промпт\\p{L}*|подсказк\\p{L}*|инструкц\\p{L}*|сообщени\\p{L}*)",
);
const RU_SEND = W(
  "отправь(?:те)?|перешли(?:те)?|передай(?:те)?|загрузи(?:те)?|выгрузи(?:те)?|слей(?:те)?|скопируй(?:те)?|вышли(?:те)?",
);
const RU_DATA = W(
  "секрет\\p{L}*|токен\\p{L}*|ключ\\p{L}*|парол\\p{L}*|учётн\\p{L}*\\s+данн\\p{L}*|учетн\\p{L}*\\s+данн\\p{L}*|переменн\\p{L}*\\s+окружени\\p{L}*|\\.env|истори\\p{L}*\\s+(?:переписки|диалога|чата)|переписк\\p{L}*|системн\\p{L}*\\s+промпт\\p{L}*|(?:личн|конфиденциальн|секретн|пользовательск)\\p{L}*\\s+данн\\p{L}*|все\\s+данн\\p{L}*|все\\s+файл\\p{L}*",
);
const RU_TARGET = W(
  "https?://\\S+|[\\w.+-]+@[\\w-]+\\.[\\w.-]+|(?:этот|этому|следующий|следующему|мой|мою|наш)\\s+(?:адрес\\p{L}*|url|сервер\\p{L}*|ящик\\p{L}*|почт\\p{L}*|вебхук\\p{L}*)",
);

// Each pattern runs only when its gates (plain word tests, cheap) all match: most texts
// hold none of the words, and the patterns' gaps and Unicode classes are costly to run at
// every position of a 64 KB file.
const EN_DATA_GATE =
  /secret|credential|token|key|passw|env|conversation|chat|system|data|files|information|details/i;
const RU_OVERRIDE_GATE = /игнор|забуд|отбрось|не\s+(?:обращ|слуш|след|выполн)/i;
const RU_DATA_GATE =
  /секрет|токен|ключ|парол|учётн|учетн|окружени|\.env|истори|переписк|системн|данн|файл/i;

const PATTERNS: readonly { kind: InjectionFinding["kind"]; gates: RegExp[]; re: RegExp }[] = [
  {
    kind: "override",
    gates: [
      /ignore|disregard|forget|override|skip|drop|abandon/i,
      /previous|prior|earlier|above|preceding|original|former/i,
    ],
    re: new RegExp(
      `\\b${EN_OVERRIDE_VERB}\\s+(?:(?:all|any|the|your|of\\s+the|everything)\\s+){0,3}${EN_EARLIER}\\s+(?:\\w+\\s+)?${EN_ORDERS}\\b`,
      "giu",
    ),
  },
  {
    kind: "override",
    gates: [/ignore|disregard|forget|override|bypass|reveal|print|leak/i, /system|developer/i],
    re: new RegExp(
      `\\b(?:ignore|disregard|forget|override|bypass|reveal|print|leak)\\s+(?:the\\s+|your\\s+|any\\s+)?${EN_SYSTEM}\\b`,
      "giu",
    ),
  },
  {
    kind: "exfiltrate",
    gates: [
      /send|post|upload|forward|transmit|exfiltrate|leak|mail|copy|pipe|curl/i,
      /https?:\/\/|@|address|url|endpoint|server|webhook|e-?mail|inbox|host/i,
      EN_DATA_GATE,
    ],
    re: new RegExp(
      `\\b${EN_SEND}${GAP}\\s+(?:\\S*[/.])?${EN_DATA}${GAP}\\s+(?:to|into|at)\\s+${EN_TARGET}`,
      "giu",
    ),
  },
  {
    kind: "override",
    gates: [RU_OVERRIDE_GATE, /предыдущ|прежн|прошл|ранее|вышеуказ|первоначал/i],
    re: new RegExp(
      `(?<![\\p{L}])${RU_OVERRIDE_VERB}\\s+(?:(?:все|всё|эти|свои|твои|ваши)\\s+)?${RU_EARLIER}\\s+(?:\\p{L}+\\s+)?${RU_ORDERS}`,
      "giu",
    ),
  },
  {
    kind: "override",
    gates: [
      /игнор|забуд|отбрось|не\s+(?:обращ|слуш|след|выполн)|обойди|раскрой|покажи/i,
      /системн/i,
    ],
    re: new RegExp(
      `(?<![\\p{L}])(?:${RU_OVERRIDE_VERB}|обойди(?:те)?|раскрой(?:те)?|покажи(?:те)?)\\s+(?:свой\\s+|свою\\s+|твой\\s+)?${RU_SYSTEM}`,
      "giu",
    ),
  },
  {
    kind: "exfiltrate",
    gates: [
      /отправь|перешли|передай|загрузи|выгрузи|слей|скопируй|вышли/i,
      /https?:\/\/|@|адрес|url|сервер|ящик|почт|вебхук/i,
      RU_DATA_GATE,
    ],
    re: new RegExp(
      `(?<![\\p{L}])${RU_SEND}${GAP}\\s+${RU_DATA}${GAP}\\s+(?:на|по\\s+адресу|в|во|к)\\s+(?:(?:адрес|почту|ящик)\\s+)?${RU_TARGET}`,
      "giu",
    ),
  },
];

/**
 * Finds phrases that instruct a model to override its instructions or send data away
 * (see above). Pure; one finding per line and kind, in line order.
 *
 * @param text - the text of an entry (frontmatter included: a summary is shown too).
 * @returns the findings; empty when none.
 */
export function findPromptInjection(text: string): InjectionFinding[] {
  const found = new Map<string, InjectionFinding>();
  const starts: number[] = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    starts.push(at + 1);
  }
  const lineOf = (index: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  for (const { kind, gates, re } of PATTERNS) {
    if (!gates.every((gate) => gate.test(text))) continue;
    for (const match of text.matchAll(re)) {
      const line = lineOf(match.index ?? 0);
      found.set(`${line} ${kind}`, { line, kind });
    }
  }
  return [...found.values()].sort((a, b) => a.line - b.line || (a.kind < b.kind ? -1 : 1));
}
