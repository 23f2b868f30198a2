/**
 * The hook edge's input and output (seed 004, "Разбор при отправке"): git gives a hook
 * its ref updates on stdin and shows what it writes as `remote:` lines. The report must
 * reach the pusher whole — a process that ends with writes still queued on a pipe loses
 * them past the pipe's buffer — so every write here resolves only once the stream has
 * taken it, and the process ends by `process.exitCode`, never `process.exit()`.
 */

/**
 * Reads a stream to its end.
 *
 * @param stream - `process.stdin`.
 * @returns the text, UTF-8.
 */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Writes lines (a newline after each) and waits until the stream has accepted them all
 * (its write callback), so nothing is pending when the process ends.
 *
 * @param stream - `process.stderr` (git relays it to the pusher).
 * @param lines - the lines.
 */
export function writeLines(stream: NodeJS.WritableStream, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    // One write: the lines stay together even when git interleaves its own output.
    stream.write(`${lines.join("\n")}\n`, () => resolve());
  });
}
