// A decision carrying the TCF strings (docs/tcf.md#recorded-with-the-decision): checked with IAB's library, kept in
// the request's meta and in its signed receipt (and so in the log, which names the record's and the receipt's hashes);
// a malformed string answers 400 and stores nothing.
import { decodeJwt } from "jose";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { expectProblem, ok, problemOf } from "./helpers";

/** Written by widget/src/tcf/tc-string.ts over the vendored GVL (vendors 10 and 755 shown, disclosedVendors included). */
const tcString = "CQua5aAQua5aAEsABBENB4FgAPIAAELAACQgF5wAgAFALzAvOAEAAoBeYAAA.IF5wAgAFALzA";
const acString = "2~1.89~dv.1.89.2677";

const withStrings = (t: Awaited<ReturnType<typeof configuredTenant>>, strings: Record<string, string>, requested = "2026-11-28T12:00:00Z") => {
  const body = permissionBody(t, "approved", requested);
  return { ...body, meta: { context: { ...body.meta.context, collectionMethod: "tcf-dialog", ...strings } } };
};
const requestCount = async (projectId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM requests WHERE project_id = ?").bind(projectId).first<{ n: number }>())!.n;

describe("a decision with TCF strings", () => {
  it("is recorded with them, in the request and its signed receipt", async () => {
    const t = await configuredTenant();
    const created = ok(await t.api("POST", "/permissions", withStrings(t, { tcString, acString })), 201);
    expect(created.meta.context).toMatchObject({ tcString, acString });
    expect(decodeJwt(created.receipt!)).toMatchObject({ tcString, acString, collectionMethod: "tcf-dialog" });
    // A decision without them keeps the receipt's shape.
    const plain = ok(await t.api("POST", "/permissions", permissionBody(t, "denied", "2026-11-28T12:01:00Z")), 201);
    expect(Object.keys(decodeJwt(plain.receipt!))).not.toContain("tcString");
  });

  it("refuses a malformed or incomplete string with 400 and stores nothing", async () => {
    const t = await configuredTenant();
    const before = await requestCount(t.projectId);
    const core = tcString.split(".")[0]!;
    const refusals: [Record<string, string>, string][] = [
      [{ tcString: "not a tc string" }, "invalid_format"],
      [{ tcString: "AAAA" }, "invalid_tc_string"],
      [{ tcString: core }, "invalid_tc_string"],
      [{ tcString: `${core.slice(0, 20)}` }, "invalid_tc_string"],
      [{ tcString: `${tcString}.${"A".repeat(20_000)}` }, "too_big"],
      [{ tcString, acString: "1~89" }, "invalid_format"],
      [{ tcString, acString: "2~1.89" }, "invalid_format"],
    ];
    for (const [strings, code] of refusals) {
      const reply = await t.api("POST", "/permissions", withStrings(t, strings));
      expectProblem(reply, 400, "validation_failed");
      const errors = problemOf(reply).errors as { path: string; code: string; message: string }[];
      expect(errors.map((e) => e.code), JSON.stringify(strings).slice(0, 100)).toContain(code);
      expect(errors.every((e) => e.path.startsWith("meta.context."))).toBe(true);
    }
    const missingDisclosed = problemOf(await t.api("POST", "/permissions", withStrings(t, { tcString: core }))).errors as { message: string }[];
    expect(missingDisclosed[0]!.message).toContain("disclosedVendors");
    expect(await requestCount(t.projectId)).toBe(before);
  });
});
