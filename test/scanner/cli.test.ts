// The CLI's arguments (docs/scanner.md#exit-codes): every bad one exits 2 with this command's own message, before
// any browser starts. Plain Node: main() returns the exit code.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { exitCodes, main } from "../../scanner/cli";
import { maxPagesCap } from "../../scanner/crawl";

let errors: string[];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
});
afterEach(() => vi.restoreAllMocks());

describe("bad arguments exit 2", () => {
  it.each([["0"], ["abc"], ["2.5"], ["-1"], [String(maxPagesCap + 1)], [""]])("--pages %j", async (value) => {
    // Failed before: 0, abc and 2.5 exited 1; -1 got Node's own "argument is ambiguous".
    expect(await main(["http://shop.localhost/", "--pages", value])).toBe(exitCodes.badArguments);
    expect(errors.join("\n")).toContain(`--pages takes a whole number from 1 to ${maxPagesCap}, not "${value}"`);
    expect(errors.join("\n")).not.toMatch(/ambiguous/);
  });

  it("caps --pages at the documented number", async () => {
    expect(maxPagesCap).toBe(100);
    expect(await main(["http://shop.localhost/", `--pages=${maxPagesCap + 1}`])).toBe(exitCodes.badArguments);
  });

  it.each([["0"], ["fast"], ["121"]])("--timeout %j", async (value) => {
    expect(await main(["http://shop.localhost/", "--timeout", value])).toBe(exitCodes.badArguments);
    expect(errors.join("\n")).toContain(`--timeout takes a whole number from 1 to 120, not "${value}"`);
  });

  it.each([[[]], [["ftp://shop.localhost/"]], [["not a url"]], [["http://a.localhost/", "http://b.localhost/"]], [["http://a.localhost/", "--colour"]]])(
    "%j",
    async (argv) => {
      expect(await main(argv)).toBe(exitCodes.badArguments);
      expect(errors.join("\n")).toContain("usage: npm run scan --");
    },
  );

  it("names the codes as the docs do", () => {
    expect(exitCodes).toEqual({ scanned: 0, couldNotRun: 1, badArguments: 2, incomplete: 3 });
  });
});
