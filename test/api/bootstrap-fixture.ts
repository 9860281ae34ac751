import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { app } from "../../worker/app";
import { call, newClient, newTenant, replyTo } from "./helpers";

export const siteOrigin = "https://shop.example";

const texts = (en: string, sv: string) => [
  { language: "en", text: en },
  { language: "sv", text: sv },
];

/**
 * A project with a web client for `siteOrigin` and two purposes: `marketing` (consent, a recipient, Google's ad
 * types: what GPC opts out of) and `analytics` (legitimate interests, analytics_storage).
 */
export async function widgetTenant() {
  const tenant = await newTenant();
  const web = await newClient(tenant.projectId, "web", [siteOrigin]);
  const party = async (referenceId: string) => {
    const reply = await tenant.api("POST", "/configurations/parties", {
      referenceId,
      type: "company",
      details: { name: referenceId, description: texts(`${referenceId} in English`, `${referenceId} på svenska`) },
    });
    expect(reply.status).toBe(201);
    return reply.body.partyId as string;
  };
  const controller = await party("shop");
  const adPartner = await party("ad-partner");
  const group = await tenant.api("POST", "/configurations/data-groups", {
    referenceId: "email",
    name: "E-mail address",
    description: texts("Your e-mail address.", "Din e-postadress."),
  });
  expect(group.status).toBe(201);
  const purpose = async (body: Record<string, unknown>) => {
    const reply = await tenant.api("POST", "/configurations/purposes", { controllers: [controller], ...body });
    expect(reply.status).toBe(201);
    return reply.body.purposeId as string;
  };
  const marketing = await purpose({
    referenceId: "marketing",
    name: "Marketing",
    legalGround: "consent",
    description: texts("Offers for you.", "Erbjudanden för dig."),
    dataGroups: [group.body.dataGroupId],
    recipients: [adPartner],
    consentMode: ["ad_storage", "ad_user_data", "ad_personalization"],
  });
  const analytics = await purpose({
    referenceId: "analytics",
    name: "Analytics",
    legalGround: "legitimate_interests",
    description: texts("Improving the shop.", "Förbättra butiken."),
    consentMode: ["analytics_storage"],
  });
  return { ...tenant, web, controller, adPartner, dataGroupId: group.body.dataGroupId as string, marketing, analytics };
}

export type WidgetTenant = Awaited<ReturnType<typeof widgetTenant>>;

type BootstrapOptions = { body?: unknown; origin?: string | null; headers?: Record<string, string>; cf?: Record<string, unknown>; token?: string };

/** The widget's call: a CORS simple request (text/plain JSON) from the page's origin. */
export const bootstrap = (projectId: string, options: BootstrapOptions = {}) =>
  call("POST", `/browser/v1/projects/${projectId}/bootstrap`, {
    rawBody: JSON.stringify(options.body ?? {}),
    token: options.token,
    cf: options.cf,
    headers: {
      "content-type": "text/plain;charset=UTF-8",
      ...(options.origin === null ? {} : { origin: options.origin ?? siteOrigin }),
      ...options.headers,
    },
  });

/**
 * The bootstrap as `npm start` and the browser tests run the Worker (`LOCAL_DEV`), with `cf` as wrangler dev puts it
 * in `request.cf`.
 */
export async function localBootstrap(
  projectId: string,
  { body = {}, headers = {}, cf }: { body?: unknown; headers?: Record<string, string>; cf?: Record<string, unknown> } = {},
) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://assent.test/browser/v1/projects/${projectId}/bootstrap`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { origin: siteOrigin, "content-type": "text/plain", ...headers },
      cf: cf as RequestInit["cf"],
    }),
    { ...env, LOCAL_DEV: "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return (await replyTo("POST", `/browser/v1/projects/${projectId}/bootstrap`, res)).body;
}

export async function identityCount(projectId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM identities WHERE project_id = ?").bind(projectId).first<{ n: number }>();
  return row!.n;
}
