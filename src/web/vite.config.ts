/**
 * Vite build of the web view (issue "A web view of the team's knowledge"): `src/web` → `dist/web`
 * (index.html and hashed `/assets/*`), served by `lore serve` at `/`. JSX is compiled by Vite's
 * own Oxc transform with Preact's automatic runtime, so no framework plugin is needed; no CDN,
 * no external fonts — everything the page loads comes from the same server.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: here,
  base: "/",
  publicDir: false,
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../../dist/web", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // One small bundle and one stylesheet; inlined assets would fight a strict CSP.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
