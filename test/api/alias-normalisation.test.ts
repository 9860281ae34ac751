// Email and phone aliases are matched by one normal form (worker/identities/normalise.ts), at write and at lookup,
// while the identifier as written is what the API returns: the privacy center finds the person whose alias was
// stored as `Carl@A.example` or `+46 70-…` style (issue 37, finding 4), and migration 0027 brings stored aliases in
// without merging two that collide.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectProblem, ok } from "./helpers";
import { center, centerTenant, me, verifiedByEmail } from "./privacy-center-helpers";

const unique = () => crypto.randomUUID().slice(0, 8);

describe("alias normalisation", () => {
  it("finds an identity stored as `Carl@A.example` from the privacy center, and shows the alias as written", async () => {
    const tenant = await centerTenant();
    const written = `Carl.${unique()}@A.example`;
    const { identityId } = ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: written }] }), 201) as { identityId: string };
    const session = await verifiedByEmail(tenant.projectId, written.toLowerCase());
    const person = await me(tenant.projectId, session);
    expect(person.identity?.identityId).toBe(identityId);
    expect((person.identity as unknown as { aliases: unknown[] }).aliases).toEqual([{ type: "urn:svc:email", identifier: written }]);
    ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "access" }, session }), 201);
  });

  it("finds a phone alias not stored in E.164 by the number the person types", async () => {
    const tenant = await centerTenant();
    const digits = String(crypto.getRandomValues(new Uint32Array(1))[0] % 10_000_000).padStart(7, "0");
    const written = `0046-70-${digits}`;
    const { identityId } = ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:phone", identifier: written }] }), 201) as { identityId: string };
    const found = ok(await tenant.api("GET", `/identities/aliases/${encodeURIComponent(`urn:svc:phone:+4670${digits}`)}`)) as { identityId: string; aliases: unknown[] };
    expect(found.identityId).toBe(identityId);
    expect(found.aliases).toEqual([{ type: "urn:svc:phone", identifier: written }]);
  });

  it("looks an email alias up however it is cased, and refuses a second identity claiming it in other letters", async () => {
    const tenant = await centerTenant();
    const written = `Dora.${unique()}@B.example`;
    const { identityId } = ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: written }] }), 201) as { identityId: string };
    const found = ok(await tenant.api("GET", `/identities/aliases/${encodeURIComponent(`urn:svc:email:${written.toUpperCase()}`)}`)) as { identityId: string };
    expect(found.identityId).toBe(identityId);
    expectProblem(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: written.toLowerCase() }] }), 409, "alias_taken");
    const other = ok(await tenant.api("POST", "/identities", {}), 201) as { identityId: string };
    expectProblem(await tenant.api("PUT", `/identities/${other.identityId}`, { aliases: [{ type: "urn:svc:email", identifier: written.toUpperCase() }] }), 409, "alias_taken");
    // Other alias types are matched exactly, as before.
    ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:national-id", identifier: "AB-1" }] }), 201);
    ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:national-id", identifier: "ab-1" }] }), 201);
  });

  it("migrates stored aliases to their normal form, and reports two that collide instead of merging them", async () => {
    const tenant = await centerTenant();
    const tag = unique();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((ok(await tenant.api("POST", "/identities", {}), 201) as { identityId: string }).identityId);
    // As stored before 0027: identifiers as written, no normal form.
    const stored = [
      [ids[0], "urn:svc:email", `Eva.${tag}@C.example`],
      [ids[1], "urn:svc:email", `eva.${tag}@c.example`],
      [ids[2], "urn:svc:email", `Finn.${tag}@C.example`],
      [ids[2], "urn:svc:phone", "+46-(0)70-123.45.67"],
    ];
    for (const [identityId, type, identifier] of stored) {
      await env.DB.prepare("INSERT INTO aliases (project_id, type, identifier, identity_id) VALUES (?, ?, ?, ?)").bind(tenant.projectId, type, identifier, identityId).run();
    }
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0027_"))!;
    const backfill = migration.queries.filter((query) => /INSERT OR IGNORE INTO `alias_collisions`|UPDATE `aliases`/.test(query));
    expect(backfill).toHaveLength(3);
    for (const query of backfill) await env.DB.prepare(query).run();

    // The one that does not collide is found in any case; the two that do are left exact and reported.
    const finn = ok(await tenant.api("GET", `/identities/aliases/${encodeURIComponent(`urn:svc:email:finn.${tag}@c.example`)}`)) as { identityId: string };
    expect(finn.identityId).toBe(ids[2]);
    const phone = ok(await tenant.api("GET", `/identities/aliases/${encodeURIComponent("urn:svc:phone:+46701234567")}`)) as { identityId: string };
    expect(phone.identityId).toBe(ids[2]);
    const eva = ok(await tenant.api("GET", `/identities/aliases/${encodeURIComponent(`urn:svc:email:eva.${tag}@c.example`)}`)) as { identityId: string };
    expect(eva.identityId).toBe(ids[1]);
    const { results } = await env.DB.prepare("SELECT * FROM alias_collisions WHERE project_id = ?").bind(tenant.projectId).all<Record<string, unknown>>();
    expect(results).toEqual([
      expect.objectContaining({ type: "urn:svc:email", normalized: `eva.${tag}@c.example`, identifier: `Eva.${tag}@C.example`, identity_id: ids[0] }),
      expect.objectContaining({ type: "urn:svc:email", normalized: `eva.${tag}@c.example`, identifier: `eva.${tag}@c.example`, identity_id: ids[1] }),
    ]);
    // Nothing was merged: each identity keeps its alias as written.
    const first = ok(await tenant.api("GET", `/identities/${ids[0]}`)) as { aliases: unknown[] };
    expect(first.aliases).toEqual([{ type: "urn:svc:email", identifier: `Eva.${tag}@C.example` }]);
  });
});
