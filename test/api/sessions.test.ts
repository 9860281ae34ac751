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
    expect(read.headers.get(header)).toBeTruthy();
    // Without a bookmark the read may go anywhere, and still says where it read.
    const anywhere = await call("GET", `${path}/identities/${t.identityId}`, { token: t.token });
    expect(anywhere.status).toBe(200);
    expect(anywhere.headers.get(header)).toBeTruthy();
  });

  it("the bookmark is opaque: it shows nothing of D1's position (how many writes the database took between two calls)", async () => {
    const t = await configuredTenant();
    const path = `/privacy/v2/projects/${t.projectId}/identities/${t.identityId}` as const;
    const first = (await call("GET", path, { token: t.token })).headers.get(header)!;
    const second = (await call("GET", path, { token: t.token })).headers.get(header)!;
    // D1's own bookmark is hex fields that sort by position (`00000085-0000024c-…`); the header carries none of it,
    // and two answers on the same position differ, so they cannot be compared either.
    for (const bookmark of [first, second]) expect(bookmark).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}/i);
    expect(second).not.toBe(first);
    // Sent back, it still starts the session where the caller left off; altered by one character, it is refused.
    ok(await call("GET", path, { token: t.token, headers: { [header]: first } }));
    const altered = first.slice(0, -2) + (first.at(-2) === "A" ? "B" : "A") + first.at(-1);
    expectProblem(await call("GET", path, { token: t.token, headers: { [header]: altered } }), 400, "invalid_bookmark");
    // A bare D1 bookmark (the old form, or one a client made up) is refused: positions come only from the service.
    const raw = `00000085-0000024c-00004c6d-${"8e61".repeat(8)}`;
    expectProblem(await call("GET", path, { token: t.token, headers: { [header]: raw } }), 400, "invalid_bookmark");
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
