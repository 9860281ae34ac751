// The walk-throughs run in the reader's shell against the service they started: on the PORT they chose for
// `npm start` (8787 unless set) and, for the page of their own, the SITE_PORT they chose (3000 unless set). A shell
// block that names either port literally breaks for a reader on another port.
import { readdirSync } from "node:fs";
import { expect, it } from "vitest";
import { read } from "./markdown";

const markdownFiles = ["README.md", ...readdirSync("docs").filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** Each shell block's lines that name 8787 or 3000 as a port, other than as the default of the reader's variable. */
function literalPorts(file: string): string[] {
  const blocks = [...read(file).matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  return blocks
    .flatMap((block) => block.split("\n"))
    .filter((line) => /:(8787|3000)\b/.test(line.replace(/\$\{PORT:-8787\}|\$\{SITE_PORT:-3000\}/g, "").replace(/#.*$/, "")))
    .map((line) => `${file}: ${line.trim()}`);
}

it("no shell block of the README or docs/ hard-codes the service's port or the reader's site port", () => {
  expect(markdownFiles.flatMap(literalPorts)).toEqual([]);
});
