// docs/jurisdictions.md#sensitive-data tables the states whose law asks consent for sensitive data: the same as the
// data the service gates by (sensitiveDataRules in worker/jurisdictions/rules.ts), so neither can drift.
import { describe, expect, it } from "vitest";
import { sensitiveDataRules } from "../../worker/jurisdictions/rules";
import { read } from "./markdown";

/** US states by their ISO 3166-2 subdivision code, as the table names them. */
const stateNames: Record<string, string> = {
  "US-CO": "Colorado", "US-CT": "Connecticut", "US-DE": "Delaware", "US-IN": "Indiana", "US-KY": "Kentucky",
  "US-MN": "Minnesota", "US-MT": "Montana", "US-NE": "Nebraska", "US-NH": "New Hampshire", "US-NJ": "New Jersey",
  "US-OR": "Oregon", "US-RI": "Rhode Island", "US-TN": "Tennessee", "US-TX": "Texas", "US-VA": "Virginia",
};

describe("docs/jurisdictions.md", () => {
  it("tables every state whose sensitive data the service asks opt-in, with the provision the data names", () => {
    const doc = read("docs/jurisdictions.md");
    const start = doc.indexOf("## Sensitive data");
    const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
    const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| State"));
    const expected = Object.entries(sensitiveDataRules).map(([area, { law }]) => `| ${stateNames[area] ?? area} | ${law} |`);
    expect(rows).toEqual(expected);
    expect(Object.values(sensitiveDataRules).every((rule) => rule.regime === "opt-in")).toBe(true);
  });
});
