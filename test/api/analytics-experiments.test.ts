import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { assignVariant } from "../../worker/analytics/experiments";
import { countEvents } from "./analytics-helpers";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { bootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, expectProblem, ok, problemOf } from "./helpers";

const fair = { rejectAll: "first-layer", accept: "primary", reject: "primary", preChecked: [] } as const;
const variants = [
  { name: "control", layout: fair },
  { name: "short-wording", layout: fair, wording: { en: { noticeOptIn: "We and our partners use cookies. Your choice." } } },
];

describe("banner experiments", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("assigns a visitor the same variant every time, and 10,000 visitors evenly within 2 points, by weight", async () => {
    const equal = [{ name: "a", weight: 1 }, { name: "b", weight: 1 }];
    const visitors = Array.from({ length: 10_000 }, (_, i) => `idn_VISITOR${String(i).padStart(20, "0")}`);
    const first = await Promise.all(visitors.map((v) => assignVariant("exp_1", v, equal)));
    expect(await Promise.all(visitors.map((v) => assignVariant("exp_1", v, equal)))).toEqual(first);
    // Binomial(10,000, 0.5) has a standard deviation of 50: 200 is four of them.
    expect(Math.abs(first.filter((v) => v === "a").length - 5_000)).toBeLessThan(200);
    const weighted = await Promise.all(visitors.map((v) => assignVariant("exp_1", v, [{ name: "a", weight: 3 }, { name: "b", weight: 1 }])));
    expect(Math.abs(weighted.filter((v) => v === "a").length - 7_500)).toBeLessThan(200);
    // Another experiment shuffles visitors anew: about half keep their letter, not all.
    const other = await Promise.all(visitors.map((v) => assignVariant("exp_2", v, equal)));
    expect(Math.abs(other.filter((v, i) => v === first[i]).length - 5_000)).toBeLessThan(200);
  });

  it("refuses to start a variant that hides Reject all, draws it less prominently or ticks a purpose, naming each guardrail", async () => {
    const unfair = [
      { name: "control", layout: fair },
      { name: "second-layer-reject", layout: { ...fair, rejectAll: "preferences-only" } },
      { name: "grey-reject", layout: { ...fair, reject: "link" } },
      { name: "pre-ticked", layout: { ...fair, preChecked: [tenant.marketing] } },
    ];
    const draft = ok(await admin("POST", `/projects/${tenant.projectId}/experiments`, { name: "Dark patterns", variants: unfair }), 201);
    expect(draft.status).toBe("draft");
    expect(draft.guardrailFailures.map((f) => f.code)).toEqual(["reject_on_first_layer", "equal_prominence", "no_pre_ticked_purpose"]);
    const refused = await admin("POST", `/projects/${tenant.projectId}/experiments/${draft.experimentId}/start`);
    expectProblem(refused, 422, "variant_not_compliant");
    expect(problemOf(refused).errors!.map((e) => [e.path, e.code])).toEqual([
      ["variants.1", "reject_on_first_layer"],
      ["variants.2", "equal_prominence"],
      ["variants.3", "no_pre_ticked_purpose"],
    ]);
    const listed = ok(await admin("GET", `/projects/${tenant.projectId}/experiments`)).items;
    expect(listed.find((e) => e.experimentId === draft.experimentId)!.status).toBe("draft");
  });

  // Hundreds of counted beacons: 1.6 s at a load of 10, 36 s at 50, past the project's 30 s.
  it("starts a fair experiment, one at a time, and reports each variant's rates with intervals and whether the difference is real", { timeout: 180_000 }, async () => {
    const { projectId, marketing } = await widgetTenant();
    const experiment = ok(await admin("POST", `/projects/${projectId}/experiments`, { name: "Shorter notice", variants }), 201);
    expect(ok(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/start`)).status).toBe("running");
    const second = ok(await admin("POST", `/projects/${projectId}/experiments`, { name: "Another", variants }), 201);
    expectProblem(await admin("POST", `/projects/${projectId}/experiments/${second.experimentId}/start`), 409, "experiment_running");

    const send = async (variant: string, accepts: number, rejects: number) => {
      const report = (event: string, purposes: Record<string, string[]>) => ({ variant, events: [{ event: "banner_shown" }, { event, ...purposes }] });
      for (const [times, body] of [
        [accepts, report("accept_all", { granted: [marketing] })],
        [rejects, report("reject_all", { refused: [marketing] })],
      ] as const) {
        const replies = await Promise.all(Array.from({ length: times }, () => countEvents(projectId, body)));
        expect(replies.every((r) => r.status === 204)).toBe(true);
      }
    };
    await send("control", 60, 60);
    await send("short-wording", 90, 30);
    // A purpose id that is not the project's is counted but is no result.
    const stranger = "pur_01JDNOTAPURPOSE00000000000";
    const strangers = await Promise.all(
      Array.from({ length: 12 }, () => countEvents(projectId, { variant: "control", events: [{ event: "banner_shown" }, { event: "customised", granted: [stranger] }] })),
    );
    expect(strangers.map((r) => r.status)).toEqual(strangers.map(() => 204));
    const results = ok(await admin("GET", `/projects/${projectId}/experiments/${experiment.experimentId}/results`));
    const [control, short] = results.variants;
    expect(control).toMatchObject({ name: "control", shown: 132, acceptAll: { share: { rate: 0.4545 }, vsControl: null } });
    expect(control.purposes.map((p) => p.purposeId)).toEqual([marketing]);
    expect(short.shown).toBe(120);
    expect(short.acceptAll.share!.rate).toBe(0.75);
    expect(short.acceptAll.share!.low).toBeGreaterThan(control.acceptAll.share!.high);
    // 45% of 132 against 75% of 120: p < 0.0001.
    expect(short.acceptAll.vsControl).toEqual({ pValue: expect.any(Number), real: true });
    expect(short.acceptAll.vsControl!.pValue).toBeLessThan(0.001);
    expect(short.purposes).toMatchObject([{ purposeId: marketing, optIn: { share: { rate: 0.75 }, vsControl: { real: true } } }]);

    expect(ok(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/stop`)).status).toBe("stopped");
    expect(ok(await admin("POST", `/projects/${projectId}/experiments/${second.experimentId}/start`)).status).toBe("running");
  });

  it("does not call a small difference real", async () => {
    const { projectId } = await widgetTenant();
    const experiment = ok(await admin("POST", `/projects/${projectId}/experiments`, { name: "Tiny", variants }), 201);
    ok(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/start`));
    for (const [variant, event, times] of [["control", "accept_all", 10], ["control", "reject_all", 10], ["short-wording", "accept_all", 12], ["short-wording", "reject_all", 8]] as const) {
      await Promise.all(Array.from({ length: times }, () => countEvents(projectId, { variant, events: [{ event: "banner_shown" }, { event }] })));
    }
    const [, short] = ok(await admin("GET", `/projects/${projectId}/experiments/${experiment.experimentId}/results`)).variants;
    expect(short.acceptAll.vsControl!.real).toBe(false);
    expect(short.acceptAll.vsControl!.pValue).toBeGreaterThan(0.05);
  });

  it("names the variant a decision was made under in its signed receipt, and only then", async () => {
    const t = await configuredTenant();
    const body = permissionBody(t, "approved", new Date(Date.now() - 1000).toISOString());
    const under = ok(await t.api("POST", "/permissions", { ...body, meta: { context: { ...body.meta.context, variant: "short-wording" } } }), 201);
    expect(decodeJwt(under.receipt!).variant).toBe("short-wording");
    const plain = ok(await t.api("POST", "/permissions", permissionBody(t, "denied", new Date().toISOString())), 201);
    expect(decodeJwt(plain.receipt!)).not.toHaveProperty("variant");
    const bad = await t.api("POST", "/permissions", { ...body, meta: { context: { variant: "Not A Name" } } });
    expect(bad.status).toBe(400);
  });

  it("serves a running experiment's visitor their variant by the identity of their visitor token, with its words in `strings` and its button style", async () => {
    const { projectId } = await widgetTenant();
    const before = ok(await bootstrap(projectId, { body: { languages: ["en"] } }));
    expect(before).not.toHaveProperty("variant");
    expect(before).not.toHaveProperty("buttons");
    expect(before.features).toContain("analytics");
    const swedishBefore = ok(await bootstrap(projectId, { body: { languages: ["sv"] } })).strings.noticeOptIn;
    // The shorter notice drawn with link-style buttons, Reject all as Accept all (the guardrail).
    const styled = [variants[0], { ...variants[1], layout: { ...fair, accept: "link", reject: "link" } }];
    const experiment = ok(await admin("POST", `/projects/${projectId}/experiments`, { name: "Shorter notice", variants: styled }), 201);
    ok(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/start`));
    const served = await Promise.all(Array.from({ length: 12 }, () => bootstrap(projectId, { body: { languages: ["en"] } }).then(ok)));
    for (const answer of served) {
      const expected = await assignVariant(experiment.experimentId, answer.token!.identityId, variants.map((v) => ({ ...v, weight: 1 })));
      expect(answer.variant).toBe(expected);
      expect(answer.buttons).toBe(expected === "short-wording" ? "link" : "primary");
      expect(answer.strings.noticeOptIn).toBe(expected === "short-wording" ? variants[1].wording!.en.noticeOptIn : before.strings.noticeOptIn);
      // The same visitor again: the same variant.
      const again = ok(await bootstrap(projectId, { body: { languages: ["en"], visitorKey: answer.token!.visitorKey } }));
      expect(again.variant).toBe(expected);
    }
    // A variant's words in English leave another language's words the project's own.
    const swedish = await Promise.all(Array.from({ length: 20 }, () => bootstrap(projectId, { body: { languages: ["sv"] } }).then(ok)));
    expect(new Set(swedish.map((answer) => answer.variant))).toEqual(new Set(["control", "short-wording"]));
    expect(swedish.map((answer) => answer.strings.noticeOptIn)).toEqual(swedish.map(() => swedishBefore));
    ok(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/stop`));
    const after = ok(await bootstrap(projectId, { body: { languages: ["en"] } }));
    expect(after).not.toHaveProperty("variant");
    expect(after).not.toHaveProperty("buttons");
  });

  it("answers bad definitions 400 and unknown experiments 404", async () => {
    for (const body of [
      { name: "One", variants: [variants[0]] },
      { name: "Same names", variants: [variants[0], variants[0]] },
      { name: "Bad layout", variants: [variants[0], { name: "x", layout: { ...fair, accept: "huge" } }] },
      { name: "", variants },
    ]) {
      expect((await admin("POST", `/projects/${tenant.projectId}/experiments`, body)).status, body.name).toBe(400);
    }
    expectProblem(await admin("POST", `/projects/${tenant.projectId}/experiments/exp_01JDNOTANEXPERIMENT0000000/start`), 404, "not_found");
    const { projectId } = await widgetTenant();
    const theirs = ok(await admin("POST", `/projects/${projectId}/experiments`, { name: "Theirs", variants }), 201);
    expectProblem(await admin("GET", `/projects/${tenant.projectId}/experiments/${theirs.experimentId}/results`), 404, "not_found");
  });
});
