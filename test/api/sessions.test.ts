// D1 Sessions API (docs/operations.md#read-your-own-writes-from-replicas-d1-sessions-api): every API call runs in a D1 session that starts from the caller's
// `Assent-Bookmark` (or anywhere, without one) and answers with the session's latest bookmark, so a client that sends
// back the last bookmark it got reads its own writes even from a replica. Local D1 does not replicate, so this tests
// the bookmark round trip, its validation and its exposure to browsers.
import { describe, expect, it } from "vitest";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { call, expectProblem, newClient, ok } from "./helpers";

const header = "assent-bookmark";

describe("D1 sessions with bookmarks", () => {
  it("a write answers with a bookmark; a read that sends it back sees the write and answers with a bookmark too", async () => {
    const t = await configuredTenant();
    const path = `/privacy/v2/projects/${t.projectId}` as const;
    const written = await call("POST", `${path}/permissions`, { token: t.token, body: permissionBody(t, "approved", new Date().toISOString()) });
    expect(written.status).toBe(201);
    const bookmark = written.headers.get(header);
    expect(bookmark).toBeTruthy();
    const read = await call("GET", `${path}/identities/${t.identityId}/permission-state`, { token: t.token, headers: { [header]: bookmark! } });
    expect(read.status).toBe(200);
    expect(read.body.purposes).toMatchObject([{ purposeId: t.marketing, requestId: written.body.requestId, status: "approved" }]);
    // Bookmarks sort oldest to newest: the read's session is at least as recent as the write.
    expect(read.headers.get(header)! >= bookmark!).toBe(true);
    // Without a bookmark the read may go anywhere, and still says where it read.
    const anywhere = await call("GET", `${path}/identities/${t.identityId}`, { token: t.token });
    expect(anywhere.status).toBe(200);
    expect(anywhere.headers.get(header)).toBeTruthy();
  });

  it("a malformed bookmark is a 400 problem, not a 500", async () => {
    const t = await configuredTenant();
    for (const bad of ["not a bookmark", "0".repeat(300), "00000000-00000030-00000000-zzzz", "first-primary"]) {
      const reply = await call("GET", `/privacy/v2/projects/${t.projectId}/identities/${t.identityId}`, { token: t.token, headers: { [header]: bad } });
      expectProblem(reply, 400, "invalid_bookmark");
    }
  });

  it("browsers may send the header and read it (CORS)", async () => {
    const t = await configuredTenant();
    const site = "https://shop.example";
    await newClient(t.projectId, "web", [site]);
    const preflight = await call("OPTIONS", `/privacy/v2/projects/${t.projectId}/permissions`, {
      headers: { origin: site, "access-control-request-method": "POST", "access-control-request-headers": `authorization, content-type, ${header}` },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain(header);
    const reply = await call("GET", `/privacy/v2/projects/${t.projectId}/identities/${t.identityId}`, { token: t.token, headers: { origin: site } });
    ok(reply);
    expect(reply.headers.get("access-control-expose-headers")?.toLowerCase()).toContain(header);
  });
});
