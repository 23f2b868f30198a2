#!/usr/bin/env node
import { quietOnClosedPipe } from "./closed-pipe.js";
import { runCli } from "./run-cli.js";

// A reader that stops early (`lore recall x | head -1`) closes the pipe: the command ends
// quietly with its own exit code instead of an EPIPE stack (closed-pipe.ts).
quietOnClosedPipe(process.stdout);
quietOnClosedPipe(process.stderr);

// The `lore` bin (package.json "bin"). process.exitCode, not process.exit(): stdout drains.
runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
