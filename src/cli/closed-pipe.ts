/**
 * Makes a closed output pipe harmless: when the reader goes away (`lore check | head -1`),
 * Node emits `EPIPE` on the stream, which unhandled ends the process with a stack and
 * exit 1. With this listener the error is swallowed and later writes are dropped, so the
 * command runs to its end and exits with its own code, as `git log | head -1` does.
 * Any other stream error is re-thrown (a full disk is not a closed pipe).
 *
 * @param stream - `process.stdout` or `process.stderr`.
 */
export function quietOnClosedPipe(stream: NodeJS.WritableStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    throw error;
  });
}
