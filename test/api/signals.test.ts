import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { browserSignals } from "../../shared/signals/signals";
import { bootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { call } from "./helpers";

const california = { country: "US", regionCode: "CA" };
const germany = { country: "DE", regionCode: "BE" };

describe("one signal layer", () => {
  let tenant: WidgetTenant;
  const permissionsOf = async (identityId: string) =>
    (await tenant.api("GET", `/permissions?identityId=${identityId}`)).body.items as Array<{ meta: any; request: any }>;

  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("a signal defined only as data (TEST_SIGNALS, no code) is read, applied under its regime and recorded", async () => {
    // The test signal is not a built-in: the vitest config adds it as a JSON entry.
    expect(browserSignals.map((s) => s.name)).toEqual(["gpc"]);
    expect(JSON.parse(env.TEST_SIGNALS!)).toMatchObject([{ name: "test-optout", header: "x-assent-test-signal" }]);
    const reply = await bootstrap(tenant.projectId, { cf: california, headers: { "x-assent-test-signal": "1" } });
    expect(reply.body.regime).toMatchObject({ name: "opt-out", gpc: false, gpcApplied: true });
    const [record] = await permissionsOf(reply.body.token!.identityId);
    expect(record.meta.context).toMatchObject({ collectionMethod: "browser-signal", signals: { "test-optout": true } });
    expect(record.meta.context.gpc).toBeUndefined();
    expect(record.request.purposes).toMatchObject([{ purposeId: tenant.marketing, status: "denied" }]);

    // Under opt-in the signal maps to nothing: nothing is recorded on its account.
    const optIn = await bootstrap(tenant.projectId, { cf: germany, headers: { "x-assent-test-signal": "1" } });
    expect(optIn.body.regime.gpcApplied).toBe(false);
    expect(await permissionsOf(optIn.body.token!.identityId)).toEqual([]);
  });

  it("GPC is recorded by the service in meta.context.signals of every request it came with", async () => {
    const { body } = await bootstrap(tenant.projectId, { cf: germany });
    const identityId = body.token!.identityId;
    const decide = (headers: Record<string, string>) =>
      call("POST", `/privacy/v2/projects/${tenant.projectId}/permissions`, {
        token: tenant.token,
        headers,
        body: { identityId, requested: new Date().toISOString(), request: { purposes: [{ purposeId: tenant.marketing, status: "denied" }] } },
      });
    const signalled = await decide({ "sec-gpc": "1" });
    expect(signalled.status).toBe(201);
    expect(signalled.body.meta).toMatchObject({ context: { signals: { gpc: true } } });
    const plain = await decide({});
    expect(plain.body.meta.context).toBeUndefined();
  });

  it("answers the bootstrap with the signals it honours, which it applied for this request, and where they are described", async () => {
    const link = '</.well-known/privacy-signals.json>; rel="describedby"; type="application/json"';
    const applied = await bootstrap(tenant.projectId, { cf: california, headers: { "sec-gpc": "1" } });
    expect(applied.body.regime.gpcApplied).toBe(true);
    expect(applied.headers.get("assent-signals")).toBe("gpc;received;effect=opt-out-of-sale-or-sharing, test-optout");
    expect(applied.headers.get("link")).toBe(link);
    // The answer depends on each signal's request header, so a cache must key on them.
    expect(applied.headers.get("vary")!.split(/\s*,\s*/)).toEqual(expect.arrayContaining(["sec-gpc", "x-assent-test-signal"]));
    // The page's script may read them (the bootstrap is a cross-origin call).
    expect(applied.headers.get("access-control-expose-headers")).toContain("Assent-Signals");

    // Received but without effect under opt-in; not received at all.
    const recorded = await bootstrap(tenant.projectId, { cf: germany, headers: { "sec-gpc": "1", "x-assent-test-signal": "1" } });
    expect(recorded.headers.get("assent-signals")).toBe("gpc;received, test-optout;received");
    const none = await bootstrap(tenant.projectId, { cf: california });
    expect(none.headers.get("assent-signals")).toBe("gpc, test-optout");
    expect(none.headers.get("link")).toBe(link);
  });

  it("publishes what it honours under /.well-known", async () => {
    const signals = await call("GET", "/.well-known/privacy-signals.json");
    expect(signals.status).toBe(200);
    expect(signals.headers.get("access-control-allow-origin")).toBe("*");
    expect(signals.body.signals).toEqual([
      expect.objectContaining({ name: "gpc", header: "sec-gpc", value: "1", effects: { "opt-out": "opt-out-of-sale-or-sharing" } }),
      expect.objectContaining({ name: "test-optout", header: "x-assent-test-signal" }),
    ]);
    const gpc = await call("GET", "/.well-known/gpc.json");
    expect(gpc.body).toMatchObject({ gpc: true });
  });
});
