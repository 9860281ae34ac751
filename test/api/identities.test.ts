import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem, type IdentityExport, newTenant, problemOf, subscribed } from "./helpers";

const nationalId = { type: "urn:svc:national-id", identifier: "19121212-1212" };

describe("identities", () => {
  it("creates, reads, updates and deletes an identity with aliases", async () => {
    const { api, projectId } = await newTenant();
    const created = await api("POST", "/identities", { referenceId: "customer-42", aliases: [nationalId] });
    expect(created.status).toBe(201);
    const identity = created.body;
    expect(identity).toMatchObject({ projectId, referenceId: "customer-42", aliases: [nationalId] });
    expect(identity.identityId).toMatch(/^idn_[0-9A-Z]{26}$/);
    expect(identity.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const read = await api("GET", `/identities/${identity.identityId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(identity);

    const email = { type: "urn:svc:email", identifier: "anna@example.com" };
    const updated = await api("PUT", `/identities/${identity.identityId}`, { aliases: [email] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ referenceId: "customer-42", aliases: [email] });

    const cleared = await api("PUT", `/identities/${identity.identityId}`, { referenceId: null });
    expect(cleared.body).toMatchObject({ referenceId: null, aliases: [email] });

    expect((await api("DELETE", `/identities/${identity.identityId}`)).status).toBe(204);
    expectProblem(await api("GET", `/identities/${identity.identityId}`), 404, "not_found");
    expectProblem(await api("DELETE", `/identities/${identity.identityId}`), 404, "not_found");
    expectProblem(await api("PUT", `/identities/${identity.identityId}`, { aliases: [email] }), 404, "not_found");
  });

  it("looks up by URL-encoded alias or by referenceId, exactly", async () => {
    const { api } = await newTenant();
    const { body: identity } = await api("POST", "/identities", { referenceId: "ref-7", aliases: [nationalId] });
    const byAlias = await api("GET", `/identities/aliases/${encodeURIComponent(`${nationalId.type}:${nationalId.identifier}`)}`);
    expect(byAlias.status).toBe(200);
    expect(byAlias.body.identityId).toBe(identity.identityId);
    const byReference = await api("GET", "/identities/aliases/ref-7");
    expect(byReference.body.identityId).toBe(identity.identityId);
    expectProblem(await api("GET", `/identities/aliases/${encodeURIComponent("urn:svc:national-id:19121212-121")}`), 404, "not_found");
    expectProblem(await api("GET", `/identities/aliases/${encodeURIComponent("urn:svc:email:19121212-1212")}`), 404, "not_found");
    expectProblem(await api("GET", "/identities/aliases/ref-"), 404, "not_found");
  });

  it("keeps one alias on one subject (409) and one referenceId per project", async () => {
    const { api } = await newTenant();
    const first = await api("POST", "/identities", { referenceId: "a", aliases: [nationalId] });
    const second = await api("POST", "/identities", { aliases: [nationalId] });
    expectProblem(second, 409, "alias_taken");
    expectProblem(await api("POST", "/identities", { referenceId: "a" }), 409, "reference_id_taken");
    const other = await api("POST", "/identities", { referenceId: "b" });
    expectProblem(await api("PUT", `/identities/${other.body.identityId}`, { aliases: [nationalId] }), 409, "alias_taken");
    // The refused update changed nothing (the batch is atomic).
    expect((await api("GET", `/identities/${other.body.identityId}`)).body.aliases).toEqual([]);
    expect((await api("GET", `/identities/${first.body.identityId}`)).body.aliases).toEqual([nationalId]);
    // The same alias in another project is another subject.
    const elsewhere = await newTenant();
    expect((await elsewhere.api("POST", "/identities", { aliases: [nationalId] })).status).toBe(201);
  });

  it("enforces the URN rules of alias types and identifiers", async () => {
    const { api } = await newTenant();
    const bad = [
      { type: "national-id", identifier: "1" },
      { type: "urn:other:national-id", identifier: "1" },
      { type: "urn:svc:national:id", identifier: "1" },
      { type: "urn:svc:", identifier: "1" },
      { type: "urn:svc:national id", identifier: "1" },
      { type: "urn:svc:email", identifier: "has space" },
      { type: "urn:svc:email", identifier: "/leading-slash" },
      { type: "urn:svc:email", identifier: "bad%zz" },
      { type: "urn:svc:email", identifier: "" },
    ];
    for (const alias of bad) {
      const reply = await api("POST", "/identities", { aliases: [alias] });
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors![0].path).toMatch(/^aliases\.0\.(type|identifier)$/);
    }
    const good = [
      { type: "urn:svc:national-id", identifier: "19121212-1212" },
      { type: "urn:svc:email", identifier: "anna@example.com" },
      { type: "urn:svc:phone", identifier: "+46701234567" },
      { type: "urn:svc:path", identifier: "a/b:c%20d" },
    ];
    expect((await api("POST", "/identities", { aliases: good })).status).toBe(201);
    expectProblem(await api("POST", "/identities", { aliases: [good[0], good[0]] }), 400, "validation_failed");
  });

  it("refuses referenceIds that are not URL-friendly or too long", async () => {
    const { api } = await newTenant();
    for (const referenceId of ["has space", "slash/es", "ä", "", "x".repeat(129), 42]) {
      expectProblem(await api("POST", "/identities", { referenceId }), 400, "validation_failed");
    }
    expect((await api("POST", "/identities", { referenceId: "Az09-._~" })).status).toBe(201);
  });

  it("deletes everything hanging on an identity in one batch, with an identity.deleted event", async () => {
    const tenant = await newTenant();
    const { api, projectId } = tenant;
    await subscribed(tenant, ["identity.deleted"]); // the outbox keeps events only for a subscriber
    const { body: identity } = await api("POST", "/identities", { aliases: [nationalId] });
    const { body: keep } = await api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: "keep@example.com" }] });
    const stamp = new Date().toISOString();
    await env.DB.batch(
      ["req_a", "req_b"].map((id) =>
        env.DB.prepare(
          "INSERT INTO requests (id, project_id, family, identity_id, status, requested, requested_at, created, updated) VALUES (?, ?, 'erasure', ?, 'received', ?, 0, ?, ?)",
        ).bind(id, projectId, identity.identityId, stamp, stamp, stamp),
      ),
    );
    expect((await api("DELETE", `/identities/${identity.identityId}`)).status).toBe(204);
    const count = (sql: string, ...args: string[]) =>
      env.DB.prepare(sql).bind(...args).first<{ n: number }>().then((r) => r!.n);
    expect(await count("SELECT count(*) AS n FROM aliases WHERE identity_id = ?", identity.identityId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM requests WHERE identity_id = ?", identity.identityId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM aliases WHERE identity_id = ?", keep.identityId)).toBe(1);
    const event = await env.DB.prepare("SELECT type, data FROM events WHERE project_id = ? AND type = 'identity.deleted'")
      .bind(projectId)
      .first<{ type: string; data: string }>();
    expect(JSON.parse(event!.data)).toEqual({ projectId, identityId: identity.identityId });
    // A second delete of the same id writes no second event.
    await api("DELETE", `/identities/${identity.identityId}`);
    expect(await count("SELECT count(*) AS n FROM events WHERE project_id = ? AND type = 'identity.deleted'", projectId)).toBe(1);
  });

  it("returns the identity in its data export", async () => {
    const { api } = await newTenant();
    const { body: identity } = await api("POST", "/identities", { aliases: [nationalId] });
    const data = await api("GET", `/identities/${identity.identityId}/data`);
    expect(data.status).toBe(200);
    expect((data.body as IdentityExport).identity).toEqual(identity);
  });

  it("never shows one project's identities to another", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const { body: identity } = await theirs.api("POST", "/identities", { referenceId: "secret", aliases: [nationalId] });
    for (const [method, path, body] of [
      ["GET", `/identities/${identity.identityId}`],
      ["PUT", `/identities/${identity.identityId}`, { referenceId: "mine" }],
      ["DELETE", `/identities/${identity.identityId}`],
      ["GET", `/identities/${identity.identityId}/data`],
      ["GET", `/identities/aliases/secret`],
      ["GET", `/identities/aliases/${encodeURIComponent(`${nationalId.type}:${nationalId.identifier}`)}`],
    ] as const) {
      expectProblem(await mine.api(method, path, body), 404, "not_found");
    }
    // Their path with my token is refused before anything is read.
    expectProblem(
      await call("GET", `/privacy/v2/projects/${theirs.projectId}/identities/${identity.identityId}`, { token: mine.token }),
      404,
      "not_found",
    );
    expect((await theirs.api("GET", `/identities/${identity.identityId}`)).body.referenceId).toBe("secret");
  });
});
