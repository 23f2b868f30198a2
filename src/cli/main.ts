#!/usr/bin/env node
import { runCli } from "./run-cli.js";

// The `lore` bin (package.json "bin"). process.exitCode, not process.exit(): stdout drains.
runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
