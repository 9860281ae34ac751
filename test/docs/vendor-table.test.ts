import { describe, expect, it } from "vitest";
import { read } from "./markdown";
import { vendorTableHead, vendorTableRows } from "./vendor-table";

describe("docs/blocking.md", () => {
  it("tables every vendor of the catalogue as the catalogue has it", () => {
    const doc = read("docs/blocking.md");
    const section = doc.slice(doc.indexOf("## The vendor catalogue"));
    const table = section.split("\n").filter((line) => line.startsWith("|"));
    expect(table.slice(0, table.indexOf("") === -1 ? undefined : table.indexOf(""))).toEqual([...vendorTableHead, ...vendorTableRows()]);
  });
});
