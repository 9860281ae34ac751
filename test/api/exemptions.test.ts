import { env } from "cloudflare:workers";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { canonical, sha256 } from "../../scripts/log-verifier.mjs";
import { exemptionRegimes } from "../../worker/jurisdictions/exemptions";
import { bootstrap, localBootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { expectProblem, ok, problemOf } from "./helpers";

const britain = { country: "GB", regionCode: "ENG" };
const germany = { country: "DE", regionCode: "BE" };

describe("exempt purposes", () => {
  let tenant: WidgetTenant;
  const create = (body: Record<string, unknown>) =>
    tenant.api("POST", "/configurations/purposes", { controllers: [tenant.controller], name: "Exempt", ...body });

  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("refuses a reason the purpose's regime does not allow with 400, naming the regimes that allow it", async () => {
    const reply = await create({ referenceId: "stats-eu", legalGround: "legitimate_interests", exemption: { reason: "audience-measurement", regime: "eprivacy" } });
    expectProblem(reply, 400, "validation_failed");
    const [error] = problemOf(reply).errors as { path: string; message: string; code: string }[];
    expect(error).toMatchObject({ path: "exemption.reason", code: "exemption_not_allowed" });
    expect(error.message).toContain("uk-duaa");
    expect(error.message).toContain("eu-omnibus");
    expect(error.message).not.toMatch(/allowed under .*eprivacy/);
  });

  it("refuses an exempt purpose that says it rests on consent", async () => {
    const reply = await create({ referenceId: "cart-consent", legalGround: "consent", exemption: { reason: "requested-service", regime: "eprivacy" } });
    expectProblem(reply, 400, "validation_failed");
    expect(problemOf(reply).errors).toMatchObject([{ path: "legalGround" }]);
  });

  it("keeps the exemption on the purpose, its version and the published configuration", async () => {
    const exemption = { reason: "requested-service", regime: "eprivacy" };
    const reply = await create({ referenceId: "cart", legalGround: "contract", exemption });
    expect(reply.status).toBe(201);
    expect(reply.body.exemption).toEqual(exemption);
    const version = await tenant.api("GET", `/configurations/purposes/${reply.body.purposeId}/versions/1`);
    expect(version.body.exemption).toEqual(exemption);
    const plain = await tenant.api("GET", `/configurations/purposes/${tenant.analytics}`);
    expect(plain.body.exemption).toBeNull();
  });

  it("serves an exemption only where its regime holds; elsewhere the purpose asks for consent", async () => {
    const project = await widgetTenant();
    const exemption = { reason: "audience-measurement", regime: "uk-duaa" } as const;
    const made = await project.api("POST", "/configurations/purposes", {
      controllers: [project.controller],
      referenceId: "uk-stats",
      name: "Statistics",
      legalGround: "legitimate_interests",
      exemption,
    });
    expect(made.status).toBe(201);
    const served = async (cf: Record<string, unknown>) =>
      (await bootstrap(project.projectId, { cf })).body.configuration.purposes.find((p) => p.purposeId === made.body.purposeId)!;
    expect(await served(britain)).toMatchObject({ legalGround: "legitimate_interests", exemption });
    expect(await served(germany)).toMatchObject({ legalGround: "consent", exemption: null });
  });

  it("holds nothing under a proposal that is not law yet", async () => {
    expect(exemptionRegimes["eu-omnibus"]).toMatchObject({ status: "proposal", holdsIn: [] });
    const project = await widgetTenant();
    const made = await project.api("POST", "/configurations/purposes", {
      controllers: [project.controller],
      referenceId: "omnibus-stats",
      name: "Statistics",
      legalGround: "legitimate_interests",
      exemption: { reason: "audience-measurement", regime: "eu-omnibus" },
    });
    expect(made.status).toBe(201);
    const { body } = await bootstrap(project.projectId, { cf: germany });
    expect(body.configuration.purposes.find((p) => p.purposeId === made.body.purposeId)).toMatchObject({ legalGround: "consent", exemption: null });
  });

  it("asks for consent under opt-in for a purpose on another ground that stores on the device, unless an exemption holds there", async () => {
    const project = await widgetTenant();
    const purpose = async (referenceId: string, body: Record<string, unknown>) => {
      const made = await project.api("POST", "/configurations/purposes", { controllers: [project.controller], referenceId, name: referenceId, ...body });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.purposeId as string;
    };
    const cart = await purpose("cart", { legalGround: "contract", consentMode: ["functionality_storage"], exemption: { reason: "requested-service", regime: "eprivacy" } });
    const ukStats = await purpose("uk-stats", { legalGround: "legitimate_interests", consentMode: ["analytics_storage"], exemption: { reason: "audience-measurement", regime: "uk-duaa" } });
    const books = await purpose("books", { legalGround: "legal_requirement" });
    const adSignals = await purpose("ad-signals", { legalGround: "legitimate_interests", consentMode: ["ad_user_data"] });
    const served = async (cf: Record<string, unknown>, regime?: string) => {
      const body = await localBootstrap(project.projectId, { cf, headers: regime ? { "x-assent-regime": regime } : {} });
      return Object.fromEntries(body.configuration.purposes.map((p) => [p.purposeId, p.legalGround]));
    };
    // The fixture's analytics rests on legitimate interests and stands for analytics_storage: in Germany (opt-in) the
    // banner asks for it, Reject all refuses it and Consent Mode's analytics_storage waits for it.
    expect(await served(germany)).toMatchObject({
      [project.analytics]: "consent",
      [cart]: "contract",
      [ukStats]: "consent",
      [books]: "legal_requirement",
      [adSignals]: "legitimate_interests",
    });
    expect(await served(britain)).toMatchObject({ [project.analytics]: "consent", [ukStats]: "legitimate_interests", [cart]: "contract" });
    // Under opt-out and notice it runs on its own ground until the visitor objects.
    expect(await served(germany, "opt-out")).toMatchObject({ [project.analytics]: "legitimate_interests" });
    expect(await served(germany, "notice")).toMatchObject({ [project.analytics]: "legitimate_interests" });
  });

  describe("with a decision", () => {
    let cart: string;
    let identityId: string;
    const decide = (exemptions: Record<string, unknown>[]) =>
      tenant.api("POST", "/permissions", {
        identityId,
        requested: new Date().toISOString(),
        meta: { context: { collectionMethod: "web-dialog", exemptions } },
        request: { purposes: [{ purposeId: tenant.marketing, status: "denied" }] },
      });

    beforeAll(async () => {
      const made = await create({ referenceId: "basket", legalGround: "contract", exemption: { reason: "requested-service", regime: "eprivacy" } });
      expect(made.status).toBe(201);
      cart = made.body.purposeId;
      identityId = (await bootstrap(tenant.projectId, { cf: germany })).body.token!.identityId;
    });

    it("records which purposes ran under which exemption, and signs it into the receipt and the log entry", async () => {
      const exemptions = [{ purposeId: cart, version: "1", reason: "requested-service", regime: "eprivacy" }];
      const reply = await decide(exemptions);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.meta).toMatchObject({ context: { exemptions } });
      const version = await env.DB.prepare("SELECT content FROM purpose_versions WHERE purpose_id = ? AND version = '1'").bind(cart).first<{ content: string }>();
      const claims = decodeJwt(reply.body.receipt!);
      expect(claims.exemptions).toEqual([{ ...exemptions[0], contentSha256: await sha256(canonical(JSON.parse(version!.content))) }]);
      const { entries } = ok(await tenant.api("GET", "/log/entries")) as unknown as { entries: { payload: { requestId?: string; exemptions?: unknown } }[] };
      expect(entries.find((entry) => entry.payload.requestId === reply.body.requestId)!.payload.exemptions).toEqual(exemptions);
    });

    it("signs an empty list when nothing ran under an exemption", async () => {
      const reply = await tenant.api("POST", "/permissions", {
        identityId,
        requested: new Date().toISOString(),
        request: { purposes: [{ purposeId: tenant.marketing, status: "denied" }] },
      });
      expect(reply.status).toBe(201);
      expect(decodeJwt(reply.body.receipt!).exemptions).toEqual([]);
    });

    it("refuses an exemption the purpose's version does not carry (400) and a purpose that does not exist (422)", async () => {
      const wrong = await decide([{ purposeId: tenant.analytics, version: "1", reason: "requested-service", regime: "eprivacy" }]);
      expectProblem(wrong, 400, "validation_failed");
      expect(problemOf(wrong).errors).toMatchObject([{ path: "meta.context.exemptions.0", code: "not_exempt" }]);
      const otherRegime = await decide([{ purposeId: cart, version: "1", reason: "requested-service", regime: "uk-duaa" }]);
      expect(problemOf(otherRegime).errors).toMatchObject([{ path: "meta.context.exemptions.0", code: "not_exempt" }]);
      const unknown = await decide([{ purposeId: "pur_nothing", version: "1", reason: "requested-service", regime: "eprivacy" }]);
      expectProblem(unknown, 422, "unknown_reference");
      expect(problemOf(unknown).errors).toMatchObject([{ path: "meta.context.exemptions.0.purposeId" }]);
    });
  });
});
