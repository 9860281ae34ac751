// The docs' walk-throughs as tests run them: their shell blocks verbatim, but for the lines that point the shell at
// the service and read its admin token, which point at this run's service instead.
import { expect, inject } from "vitest";

/** The shell blocks (```sh, ```bash) of a Markdown text, in order. */
export const shellBlocks = (markdown: string) => [...markdown.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

/** `script` with its one `export ASSENT=…` and one `export ADMIN_TOKEN=…` line set to this run's service. */
export function pointedAtService(script: string): string {
  for (const [name, value] of [["ASSENT", inject("baseUrl")], ["ADMIN_TOKEN", inject("adminToken")]]) {
    const line = new RegExp(`^export ${name}=.*$`, "m");
    expect(script, `the doc sets ${name} with one export line`).toMatch(line);
    script = script.replace(line, `export ${name}='${value}'`);
  }
  return script;
}
