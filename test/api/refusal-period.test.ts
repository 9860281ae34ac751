import { beforeAll, describe, expect, it } from "vitest";
import { defaultRefusalStandsSeconds } from "../../worker/jurisdictions/rules";
import { bootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, expectProblem } from "./helpers";

const germany = { country: "DE", regionCode: "BE" };

describe("a refusal stands for the project's period", () => {
  let tenant: WidgetTenant;
  const rules = (body: Record<string, unknown>) => admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, body);
  /** A visitor who refused marketing `agoSeconds` ago (a backend imports the decision with its own time). */
  const refusedAgo = async (agoSeconds: number) => {
    const { body } = await bootstrap(tenant.projectId, { cf: germany });
    const reply = await tenant.api("POST", "/permissions", {
      identityId: body.token!.identityId,
      requested: new Date(Date.now() - agoSeconds * 1000).toISOString(),
      request: { purposes: [{ purposeId: tenant.marketing, status: "denied" }] },
    });
    expect(reply.status).toBe(201);
    return body.token!.visitorKey;
  };
  const askAgain = async (visitorKey: string) => (await bootstrap(tenant.projectId, { cf: germany, body: { visitorKey } })).body.askAgain;

  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("is six months unless the project sets it, and is part of the jurisdiction rules", async () => {
    expect(defaultRefusalStandsSeconds).toBe(15_778_800);
    const read = await admin("GET", `/projects/${tenant.projectId}/jurisdictions`);
    expect(read.body, JSON.stringify(read.body)).toMatchObject({ refusalStandsSeconds: 15_778_800 });
    expectProblem(await rules({ rules: [], rest: "opt-in", refusalStandsSeconds: 0 }), 400, "validation_failed");
    const set = await rules({ rules: [{ area: "EEA", regime: "opt-in" }], rest: "notice", refusalStandsSeconds: 3600 });
    expect(set.body).toMatchObject({ refusalStandsSeconds: 3600 });
  });

  it("a refusal younger than the period stands; an older one is named in askAgain; consent never is", async () => {
    await rules({ rules: [{ area: "EEA", regime: "opt-in" }], rest: "notice", refusalStandsSeconds: 3600 });
    expect(await askAgain(await refusedAgo(60))).toEqual([]);
    expect(await askAgain(await refusedAgo(7200))).toEqual([tenant.marketing]);
    const { body } = await bootstrap(tenant.projectId, { cf: germany });
    const approved = await tenant.api("POST", "/permissions", {
      identityId: body.token!.identityId,
      requested: new Date(Date.now() - 7200 * 1000).toISOString(),
      request: { purposes: [{ purposeId: tenant.marketing, status: "approved" }] },
    });
    expect(approved.status).toBe(201);
    expect(await askAgain(body.token!.visitorKey)).toEqual([]);
  });

  it("under the default period a refusal of a day ago stands", async () => {
    await rules({ rules: [{ area: "EEA", regime: "opt-in" }], rest: "notice" });
    expect(await askAgain(await refusedAgo(86_400))).toEqual([]);
  });
});
