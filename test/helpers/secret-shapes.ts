/**
 * Credential shapes for the secret guard's tests, built at run time by concatenation so
 * the repository itself holds no literal that a secret scanner (or a forge's push
 * protection) would take for a live credential. The values are random-looking but made
 * up; none was ever issued.
 */

/** A deterministic pseudo-random string over `alphabet` (same seed → same string). */
export function noise(length: number, seed: number, alphabet = ALNUM): string {
  let state = seed >>> 0 || 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    // xorshift32: enough to look random to an entropy check, and reproducible.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
export const ALNUM = UPPER + LOWER + DIGITS;
const BASE64 = `${ALNUM}+/`;

/** A PEM private key block of `kind` (`RSA `, `EC `, `OPENSSH `, `` for PKCS#8). */
function pem(kind: string, magic: string, seed: number, newline = "\n"): string {
  const body = magic + noise(250, seed, BASE64);
  const lines = body.match(/.{1,64}/g) ?? [];
  const marker = [kind, "PRIV", "ATE KEY-----"].join("");
  return [`-----BEGIN ${marker}`, ...lines, `-----END ${marker}`].join(newline);
}

/** One row: a name, the text, and the rule expected to fire (a prefix of the rule id). */
export interface SecretShape {
  name: string;
  text: string;
  rule: string;
}

const gh = (prefix: string, seed: number) => `${prefix}_${noise(36, seed)}`;

/** At least 20 credential shapes every guarded write must refuse. */
export function secretShapes(): SecretShape[] {
  const sl = "@secretlint/secretlint-rule-";
  return [
    { name: "RSA private key (PEM)", text: pem("RSA ", "MIIEow", 1), rule: `${sl}privatekey` },
    { name: "EC private key (PEM)", text: pem("EC ", "MIGkAgEBBDA", 2), rule: `${sl}privatekey` },
    {
      name: "OpenSSH private key",
      text: pem("OPENSSH ", "b3BlbnNzaC1rZXktdjE", 3),
      rule: `${sl}privatekey`,
    },
    {
      name: "GCP service-account JSON private key",
      text: JSON.stringify(
        {
          type: "service_account",
          project_id: "lore-demo",
          private_key_id: noise(40, 4, "0123456789abcdef"),
          private_key: `${pem("", "MIIEvQ", 5)}\n`,
          client_email: "lore@lore-demo.iam.gserviceaccount.com",
        },
        null,
        2,
      ),
      rule: sl, // the gcp rule (whole JSON) and the privatekey rule (the escaped PEM) both fire
    },
    {
      name: "AWS access key id",
      text: `aws_access_key_id = AKIA${noise(16, 6, UPPER + DIGITS)}`,
      rule: `${sl}aws`,
    },
    {
      name: "AWS secret access key",
      text: `AWS_SECRET_ACCESS_KEY=${noise(40, 7, BASE64)}`,
      rule: `${sl}aws`,
    },
    { name: "GitHub classic token", text: `token: ${gh("ghp", 8)}`, rule: `${sl}github` },
    { name: "GitHub OAuth token", text: `Authorization: ${gh("gho", 9)}`, rule: `${sl}github` },
    {
      name: "GitHub fine-grained token",
      text: `github_pat_11${noise(20, 10, UPPER + DIGITS)}_${noise(59, 11)}`,
      rule: `${sl}github`,
    },
    {
      name: "GitLab personal access token",
      text: `glpat-${noise(20, 12)}`,
      rule: `${sl}gitlab`,
    },
    {
      name: "Slack bot token",
      text: `xoxb-${noise(12, 13, DIGITS)}-${noise(13, 14, DIGITS)}-${noise(24, 15)}`,
      rule: `${sl}slack`,
    },
    {
      name: "Slack user token",
      text: `xoxp-${noise(12, 16, DIGITS)}-${noise(12, 17, DIGITS)}-${noise(13, 18, DIGITS)}-${noise(32, 19, "0123456789abcdef")}`,
      rule: `${sl}slack`,
    },
    {
      name: "Slack incoming webhook",
      text: `https://hooks.slack.com/services/T${noise(8, 20, UPPER + DIGITS)}/B${noise(8, 21, UPPER + DIGITS)}/${noise(24, 22)}`,
      rule: `${sl}slack`,
    },
    {
      name: "npm access token",
      text: `//registry.npmjs.org/:_authToken=npm_${noise(36, 23)}`,
      rule: `${sl}npm`,
    },
    {
      name: "SendGrid API key",
      text: `SG.${noise(22, 24)}.${noise(43, 25)}`,
      rule: `${sl}sendgrid`,
    },
    {
      name: "OpenAI API key",
      text: [`OPENAI_API_KEY=sk-${noise(20, 26)}`, "T3Blbk", `FJ${noise(20, 27)}`].join(""),
      rule: `${sl}openai`,
    },
    {
      name: "Anthropic API key",
      text: [`sk-ant-api03-${noise(93, 28)}-${noise(6, 29)}`, "AA"].join(""),
      rule: `${sl}anthropic`,
    },
    {
      name: "Hugging Face token",
      text: `hf_${noise(34, 30, LOWER + UPPER)}`,
      rule: `${sl}huggingface`,
    },
    {
      name: "basic-auth URL with a password",
      text: `curl https://deploy:${noise(14, 31)}@ci.example.com/hooks/build`,
      rule: `${sl}basicauth`,
    },
    {
      name: "PostgreSQL URL with a password",
      text: `DATABASE_URL=postgres://lore:${noise(16, 32)}@db.internal:5432/lore`,
      rule: sl,
    },
    {
      name: "Stripe live secret key",
      text: `stripe.api_key = "sk_live_${noise(24, 33)}"`,
      rule: "lore/", // lore/stripe-key, and the assignment rule for the same line
    },
    {
      name: "Stripe restricted live key",
      text: `Use rk_live_${noise(32, 34)} for the reports job.`,
      rule: "lore/stripe-key",
    },
    {
      name: "password assignment",
      text: `password = "${noise(16, 35, `${ALNUM}!#%&*+-?@^~`)}"`,
      rule: "lore/high-entropy-assignment",
    },
    {
      name: "api_key in YAML",
      text: `service:\n  api_key: ${noise(32, 36, "0123456789abcdef")}`,
      rule: "lore/high-entropy-assignment",
    },
    {
      name: "SECRET in a .env file",
      text: `# the job's env\nAPP_SECRET=${noise(28, 37, BASE64)}`,
      rule: "lore/high-entropy-assignment",
    },
    {
      name: "client_secret in JSON",
      text: `{"client_id": "lore", "client_secret": "${noise(40, 38)}"}`,
      rule: "lore/high-entropy-assignment",
    },
    {
      name: "JWT given to a token",
      text: `token = eyJhbGciOiJIUzI1NiJ9.eyJ${noise(40, 39)}.${noise(43, 40)}`,
      rule: "lore/high-entropy-assignment",
    },
    {
      name: "a flag with a password",
      text: `mysql --user=app --password=${noise(14, 41)}x9 prod`,
      rule: "lore/high-entropy-assignment",
    },
    {
      name: "RSA private key quoted in Markdown (> before every line)",
      text: pem("RSA ", "MIIEow", 42)
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n"),
      rule: `${sl}privatekey`,
    },
    {
      name: "GitHub token with a zero-width space inside",
      text: `use ${gh("ghp", 43).slice(0, 14)}\u200b${gh("ghp", 43).slice(14)} here`,
      rule: `${sl}github`,
    },
    {
      name: "GitHub token with a soft hyphen inside",
      text: `use ${gh("ghp", 44).slice(0, 20)}\u00ad${gh("ghp", 44).slice(20)}`,
      rule: `${sl}github`,
    },
    {
      name: "AWS key id in full-width letters",
      text: `aws_access_key_id = ${`AKIA${noise(16, 45, UPPER + DIGITS)}`.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))}`,
      rule: `${sl}aws`,
    },
  ];
}

/** At least 20 look-alikes every guarded write must let through. */
export function lookAlikes(): { name: string; text: string }[] {
  const hex = "0123456789abcdef";
  const example = "AKIA" + "IOSFODNN7EXAMPLE";
  return [
    {
      name: "an environment variable's name as the value (a real corpus agent file)",
      text: "env:\n  OPIK_API_KEY: COPILOT_MCP_OPIK_API_KEY",
    },
    { name: "UUIDv4", text: "id: 3f2b8c1e-9d4a-4e7b-8c2f-1a5d6e7f8a9b" },
    { name: "UUIDv7 as a token id", text: "token_id = 0190f3a2-7b4c-7d1e-9f2a-3b4c5d6e7f80" },
    { name: "git sha", text: `Fixed in commit ${noise(40, 50, hex)} on main.` },
    { name: "sha256 hex", text: `sha256: ${noise(64, 51, hex)}` },
    { name: "sha256 of a token is not the token", text: `token_hash = ${noise(64, 52, hex)}` },
    {
      name: "base64 of plain text",
      text: `The header is ${Buffer.from("Lore keeps knowledge next to the code, in git.").toString("base64")}`,
    },
    { name: "AWS's documented example key id", text: `aws_access_key_id = ${example}` },
    {
      name: "AWS's documented example secret",
      text: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY",
    },
    { name: "a placeholder in angle brackets", text: "GITHUB_TOKEN=<your-token>" },
    { name: "x-ed out", text: `token: ghp_${"x".repeat(36)}` },
    { name: "an env var reference", text: "export GITHUB_TOKEN=$GITHUB_TOKEN" },
    { name: "a braced env var", text: `password = ${"$"}{DB_PASSWORD}` },
    { name: "a GitHub Actions secret", text: `NPM_TOKEN: ${"$"}{{ secrets.NPM_TOKEN }}` },
    { name: "process.env", text: "const apiKey = process.env.OPENAI_API_KEY;" },
    { name: "a dotted reference", text: "token = settings.auth.bearerToken" },
    { name: "a call", text: "const token = await getInstallationToken(app, repoId);" },
    { name: "a short password", text: "password: hunter2" },
    { name: "changeme", text: "POSTGRES_PASSWORD=changeme-before-prod" },
    { name: "a word value", text: "auth: required\ntoken_type: bearer" },
    { name: "Stripe test key", text: `sk_test_${noise(24, 53)}` },
    { name: "Stripe publishable key", text: `pk_live_${noise(24, 54)}` },
    {
      name: "a URL with a user and no password",
      text: "git clone https://git@example.com/lore.git",
    },
    { name: "a URL with a port", text: "Open http://127.0.0.1:7377/api/v1/repos to list them." },
    { name: "a database URL without a password", text: "postgres://localhost:5432/lore" },
    {
      name: "a public key",
      text: `-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOC${noise(120, 55, BASE64)}\n-----END PUBLIC KEY-----`,
    },
    {
      name: "a private key placeholder",
      text:
        "-----BEGIN RSA PRIV" +
        "ATE KEY-----\n...your key here...\n-----END RSA PRIV" +
        "ATE KEY-----",
    },
    {
      name: "an example marked for secretlint",
      text: `Tokens look like this:\n<!-- secretlint-disable-next-line -->\n${gh("ghp", 56)}\n`,
    },
    {
      name: "prose about secrets",
      text: "Rotate the API key and the client secret every 90 days; never commit a password.",
    },
    {
      name: "Russian prose",
      text: "Пароль от базы лежит в хранилище секретов: спросите у дежурного.",
    },
    { name: "an npm integrity hash", text: `"integrity": "sha512-${noise(86, 57, BASE64)}=="` },
    { name: "a secret's name", text: "secret_name: prod/lore/db-password-2026" },
  ];
}
