// Runs one delivery in its own process (the kill -9 test kills it at some moment):
// node deliver-child.mjs <index file> <bare repository> <repo> <branch>
import { bareDeliveryTarget } from "../../../dist/adapters/git-cli/bare-delivery-target.js";
import { openIndex } from "../../../dist/index/entry-index.js";
import { deliverDrafts } from "../../../dist/services/drafts/deliver-drafts.js";

const [db, bare, repo, branch] = process.argv.slice(2);
const index = openIndex(db);
const answer = await deliverDrafts(
  { index, target: bareDeliveryTarget(bare) },
  {
    repo,
    input: { branch, mode: "same" },
    author: { name: "Alice Doe", email: "alice@example.com", user: "alice" },
  },
);
index.close();
process.stdout.write(JSON.stringify(answer));
