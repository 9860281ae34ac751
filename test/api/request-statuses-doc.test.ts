// docs/api.md "Request statuses" documents which status moves PUT and DELETE allow per family; the rules live in
// worker/requests/families.ts (`transitions`). This holds the documented table to the rules, so neither can drift.
import { describe, expect, it } from "vitest";
import apiGuide from "../../docs/api.md?raw";
import { accessRules, erasureRules, objectionRules, permissionRules, type FamilyTraits } from "../../worker/requests/families";
import { statuses, type Status } from "../../worker/requests/table";

const families: FamilyTraits[] = [permissionRules, objectionRules, erasureRules, accessRules];

/** The table under "## Request statuses": per family (named by its path segment in a column header), from → to. */
function documentedMoves() {
  const section = apiGuide.split(/^## /m).find((part) => part.startsWith("Request statuses"));
  if (!section) throw new Error('docs/api.md has no "## Request statuses" section');
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) => line.slice(1, -1).split("|").map((cell) => cell.trim()));
  const [header, , ...body] = rows;
  const moves = new Map<string, Map<Status, Status[]>>();
  header.forEach((title, column) => {
    for (const { segment } of families) {
      if (column > 0 && title.toLowerCase().includes(segment)) {
        moves.set(segment, new Map(body.map((row) => [row[0].replace(/`/g, "") as Status, (row[column].match(/`[a-z_]+`/g) ?? []).map((s) => s.replace(/`/g, "") as Status)])));
      }
    }
  });
  return moves;
}

describe("docs/api.md request statuses", () => {
  it.each(families.map((rules) => [rules.segment, rules] as const))("list exactly the moves the rules allow for %s", (segment, rules) => {
    const documented = documentedMoves().get(segment);
    expect(documented, `a column for ${segment}`).toBeDefined();
    expect([...documented!.keys()].sort()).toEqual([...statuses].sort());
    for (const from of statuses) {
      expect([...documented!.get(from)!].sort(), `${segment} from ${from}`).toEqual([...rules.transitions[from]].sort());
    }
  });
});
