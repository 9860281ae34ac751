import { describe, expect, it } from "vitest";
import { read } from "./markdown";
import { vendorTableHead, vendorTableRows } from "./vendor-table";

describe("docs/blocking.md", () => {
  it("tables every vendor of the catalogue as the catalogue has it", () => {
    const doc = read("docs/blocking.md");
    const start = doc.indexOf("## The vendor catalogue");
    // The section runs to the next heading of its level; later sections have tables of their own.
    const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
    expect(section.split("\n").filter((line) => line.startsWith("|"))).toEqual([...vendorTableHead, ...vendorTableRows()]);
  });
});
