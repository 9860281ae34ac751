// Request flooding (issue 37, finding 5): one verified session filed 40 erasure requests in 17 seconds, each with a
// receipt, a log entry and a webhook event. From the privacy center one request of each kind is open per identity
// (a repeat answers with the open one), and a session files at most 5.
import { describe, expect, it } from "vitest";
import { ok } from "./helpers";
import { expectProblem } from "./helpers";
import { center, personWithConsent, uniqueEmail, verifiedByEmail, written, type PersonRequest } from "./privacy-center-helpers";

describe("request flooding", () => {
  it("answers a repeat of an open request with the open one, writing nothing", async () => {
    const email = uniqueEmail();
    const tenant = await personWithConsent(email);
    const session = await verifiedByEmail(tenant.projectId, email);
    const first = ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 201) as PersonRequest;
    const before = await written(tenant.projectId);
    for (let i = 0; i < 3; i++) {
      const again = ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 200) as PersonRequest;
      expect(again.requestId).toBe(first.requestId);
    }
    expect(await written(tenant.projectId)).toEqual(before);
    // Once the operator has answered it, a new one may be filed.
    ok(await tenant.api("PUT", `/erasures/${first.requestId}`, { status: "rejected" }));
    const next = ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 201) as PersonRequest;
    expect(next.requestId).not.toBe(first.requestId);
  });

  it("files at most 5 requests per session", async () => {
    const email = uniqueEmail();
    const tenant = await personWithConsent(email);
    const session = await verifiedByEmail(tenant.projectId, email);
    for (const kind of ["access", "portability", "erasure"]) ok(await center(tenant.projectId, "POST", "/requests", { body: { kind }, session }), 201);
    for (let i = 0; i < 2; i++) {
      const filed = ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "access" }, session }), 200) as PersonRequest;
      ok(await tenant.api("PUT", `/accesses/${filed.requestId}`, { status: "rejected" }));
      ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "access" }, session }), 201);
    }
    ok(await tenant.api("PUT", `/erasures/${(ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 200) as PersonRequest).requestId}`, { status: "rejected" }));
    const before = await written(tenant.projectId);
    expectProblem(await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 429, "session_request_limit");
    expect(await written(tenant.projectId)).toEqual(before);
  });
});
