import { describe, expect, it } from "vitest";
import { configuredTenant } from "./configuration-fixture";
import { call, expectProblem, newTenant, ok, problemOf } from "./helpers";

describe("data groups", () => {
  it("are created, listed, read, replaced and deleted", async () => {
    const { api, projectId } = await newTenant();
    const created = ok(
      await api("POST", "/configurations/data-groups", {
        referenceId: "email",
        name: "E-mail address",
        description: [{ language: "en", text: "Your e-mail" }, { language: "sv", text: "Din e-post" }],
      }),
      201,
    );
    expect(created).toMatchObject({ projectId, referenceId: "email", name: "E-mail address" });
    expect(created.dataGroupId).toMatch(/^dg_/);
    const id = created.dataGroupId;
    expect(ok(await api("GET", "/configurations/data-groups")).items).toEqual([created]);
    expect(ok(await api("GET", `/configurations/data-groups/${id}`))).toEqual(created);
    const replaced = ok(await api("PUT", `/configurations/data-groups/${id}`, { referenceId: "mail", name: "Mail" }));
    expect(replaced).toMatchObject({ referenceId: "mail", name: "Mail", description: [], created: created.created });
    expectProblem(await api("POST", "/configurations/data-groups", { referenceId: "mail", name: "Again" }), 409, "reference_id_taken");
    expect((await api("DELETE", `/configurations/data-groups/${id}`)).status).toBe(204);
    expectProblem(await api("GET", `/configurations/data-groups/${id}`), 404, "not_found");
  });

  it("refuses deleting one a purpose uses, and allows it once the purpose is deleted", async () => {
    const t = await configuredTenant();
    expectProblem(await t.api("DELETE", `/configurations/data-groups/${t.email}`), 409, "data_group_in_use");
    expect((await t.api("DELETE", `/configurations/purposes/${t.marketing}`)).status).toBe(204);
    expect((await t.api("DELETE", `/configurations/data-groups/${t.email}`)).status).toBe(204);
    // The party the deleted purpose named is released too.
    expect((await t.api("DELETE", `/parties/${t.processor}`)).status).toBe(204);
  });
});

describe("purposes", () => {
  it("are created at version 1 with every field, and an unknown purpose is 404", async () => {
    const t = await configuredTenant();
    const purpose = ok(await t.api("GET", `/configurations/purposes/${t.marketing}`));
    expect(purpose).toMatchObject({
      projectId: t.projectId,
      purposeId: t.marketing,
      referenceId: "marketing",
      version: "1",
      legalGround: "consent",
      dataGroups: [t.email, t.location],
      processors: [t.processor],
      recipients: [t.recipient],
      controllers: [t.controller],
    });
    expect(ok(await t.api("GET", "/configurations/purposes")).items.map((p: any) => p.referenceId)).toEqual(["marketing", "analytics"]);
    expectProblem(await t.api("GET", "/configurations/purposes/pur_missing"), 404, "not_found");
  });

  it("require a controller, refuse duplicates and unknown ids", async () => {
    const t = await configuredTenant();
    const base = { referenceId: "x", name: "X", legalGround: "contract", controllers: [t.controller] };
    const noController = await t.api("POST", "/configurations/purposes", { ...base, controllers: [] });
    expectProblem(noController, 400, "validation_failed");
    expect(problemOf(noController).errors![0].path).toBe("controllers");
    expectProblem(await t.api("POST", "/configurations/purposes", { ...base, controllers: undefined }), 400, "validation_failed");
    const twice = await t.api("POST", "/configurations/purposes", { ...base, dataGroups: [t.email, t.email] });
    expectProblem(twice, 400, "validation_failed");
    expect(problemOf(twice).errors).toEqual([expect.objectContaining({ path: "dataGroups.1" })]);
    expectProblem(await t.api("POST", "/configurations/purposes", { ...base, recipients: [t.recipient, t.recipient] }), 400, "validation_failed");
    const unknown = await t.api("POST", "/configurations/purposes", { ...base, dataGroups: ["dg_nope"], processors: [t.processor, "pty_nope"] });
    expectProblem(unknown, 422, "unknown_reference");
    expect(problemOf(unknown).errors!.map((e: any) => e.path)).toEqual(["dataGroups.0", "processors.1"]);
    expectProblem(await t.api("POST", "/configurations/purposes", { ...base, legalGround: "whim" }), 400, "validation_failed");
    expectProblem(await t.api("POST", "/configurations/purposes", { ...base, referenceId: "marketing" }), 409, "reference_id_taken");
    // Another project's party is unknown here.
    const other = await configuredTenant();
    expectProblem(await t.api("POST", "/configurations/purposes", { ...base, controllers: [other.controller] }), 422, "unknown_reference");
  });

  it("keep every version: in-place edits keep the version, requireNewConsent makes the next one", async () => {
    const t = await configuredTenant();
    const body = {
      referenceId: "marketing",
      name: "Marketing e-mails",
      legalGround: "consent",
      dataGroups: [t.email],
      processors: [t.processor],
      controllers: [t.controller],
    };
    const edited = ok(await t.api("PUT", `/configurations/purposes/${t.marketing}`, { ...body, requireNewConsent: false }));
    expect(edited).toMatchObject({ version: "1", name: "Marketing e-mails", dataGroups: [t.email], recipients: [] });
    const bumped = ok(await t.api("PUT", `/configurations/purposes/${t.marketing}`, { ...body, name: "Marketing 2", requireNewConsent: true }));
    expect(bumped).toMatchObject({ version: "2", name: "Marketing 2" });
    const again = ok(await t.api("PUT", `/configurations/purposes/${t.marketing}`, { ...body, name: "Marketing 3", requireNewConsent: true }));
    expect(again.version).toBe("3");
    const versions = ok(await t.api("GET", `/configurations/purposes/${t.marketing}/versions`)).items;
    expect(versions.map((v: any) => [v.version, v.name])).toEqual([
      ["1", "Marketing e-mails"],
      ["2", "Marketing 2"],
      ["3", "Marketing 3"],
    ]);
    expect(ok(await t.api("GET", `/configurations/purposes/${t.marketing}/versions/2`)).name).toBe("Marketing 2");
    expectProblem(await t.api("GET", `/configurations/purposes/${t.marketing}/versions/9`), 404, "not_found");
    expectProblem(await t.api("PUT", `/configurations/purposes/${t.marketing}`, body), 400, "validation_failed");
    expectProblem(
      await t.api("PUT", `/configurations/purposes/${t.marketing}`, { ...body, referenceId: "analytics", requireNewConsent: false }),
      409,
      "reference_id_taken",
    );
    expectProblem(await t.api("PUT", "/configurations/purposes/pur_missing", { ...body, requireNewConsent: false }), 404, "not_found");
  });

  it("deleted purposes leave the configuration but their versions stay readable, and the referenceId is free", async () => {
    const t = await configuredTenant();
    expect((await t.api("DELETE", `/configurations/purposes/${t.marketing}`)).status).toBe(204);
    expectProblem(await t.api("GET", `/configurations/purposes/${t.marketing}`), 404, "not_found");
    expectProblem(await t.api("DELETE", `/configurations/purposes/${t.marketing}`), 404, "not_found");
    expect(ok(await t.api("GET", "/configurations/purposes")).items.map((p: any) => p.purposeId)).toEqual([t.analytics]);
    const kept = ok(await t.api("GET", `/configurations/purposes/${t.marketing}/versions/1`));
    expect(kept).toMatchObject({ referenceId: "marketing", dataGroups: [t.email, t.location], controllers: [t.controller] });
    ok(await t.api("POST", "/configurations/purposes", { referenceId: "marketing", name: "New", legalGround: "consent", controllers: [t.controller] }), 201);
  });

  it("of another project are 404", async () => {
    const t = await configuredTenant();
    const other = await newTenant();
    for (const path of [
      `/configurations/purposes/${t.marketing}`,
      `/configurations/purposes/${t.marketing}/versions`,
      `/configurations/data-groups/${t.email}`,
    ]) {
      expectProblem(await other.api("GET", path), 404, "not_found");
    }
    expectProblem(await other.api("DELETE", `/configurations/purposes/${t.marketing}`), 404, "not_found");
    expectProblem(await call("GET", `/privacy/v2/projects/${t.projectId}/configurations/purposes`, { token: other.token }), 404, "not_found");
  });
});

describe("GET /privacy/v1/configurations", () => {
  it("returns the project and every live purpose with data groups and parties expanded", async () => {
    const t = await configuredTenant();
    const config = ok(await call("GET", "/privacy/v1/configurations", { token: t.token }));
    expect(config.projectId).toBe(t.projectId);
    expect(config.project).toMatchObject({ name: expect.any(String), controller: { name: "Example AB" }, defaultLanguage: "en" });
    expect(config.purposes).toHaveLength(2);
    const [marketing, analytics] = config.purposes;
    expect(marketing).toMatchObject({
      purposeId: t.marketing,
      referenceId: "marketing",
      version: "1",
      legalGround: "consent",
      name: "Marketing",
      dataGroups: [
        { dataGroupId: t.email, referenceId: "email", name: "email", description: [] },
        { dataGroupId: t.location, referenceId: "location" },
      ],
      controllers: [{ partyId: t.controller, referenceId: "shop", type: "company", details: { name: "shop" } }],
      processors: [{ partyId: t.processor }],
      recipients: [{ partyId: t.recipient }],
    });
    expect(analytics).toMatchObject({ legalGround: "legitimate_interests", processors: [], recipients: [] });
    expectProblem(await call("GET", "/privacy/v1/configurations"), 401, "unauthorized");
  });
});
