import { newTenant, ok } from "./helpers";

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/**
 * A tenant with a small consent configuration: a controller, a processor and a recipient; data groups
 * email and location; purpose `marketing` (consent) using both data groups and both parties, and
 * `analytics` (legitimate interests) using location. Plus one identity.
 */
export async function configuredTenant(given?: Tenant) {
  const tenant = given ?? (await newTenant());
  const { api } = tenant;
  const party = async (referenceId: string) =>
    ok(await api("POST", "/configurations/parties", { referenceId, type: "company", details: { name: referenceId } }), 201).partyId as string;
  const dataGroup = async (referenceId: string) =>
    ok(await api("POST", "/configurations/data-groups", { referenceId, name: referenceId }), 201).dataGroupId as string;
  const controller = await party("shop");
  const processor = await party("mailer");
  const recipient = await party("partner");
  const email = await dataGroup("email");
  const location = await dataGroup("location");
  const marketing = ok(
    await api("POST", "/configurations/purposes", {
      referenceId: "marketing",
      name: "Marketing",
      legalGround: "consent",
      dataGroups: [email, location],
      processors: [processor],
      recipients: [recipient],
      controllers: [controller],
    }),
    201,
  ).purposeId as string;
  const analytics = ok(
    await api("POST", "/configurations/purposes", {
      referenceId: "analytics",
      name: "Analytics",
      legalGround: "legitimate_interests",
      dataGroups: [location],
      controllers: [controller],
    }),
    201,
  ).purposeId as string;
  const identityId = await newIdentity(api);
  return { ...tenant, controller, processor, recipient, email, location, marketing, analytics, identityId };
}

export async function newIdentity(api: Awaited<ReturnType<typeof newTenant>>["api"]): Promise<string> {
  return ok(await api("POST", "/identities", {}), 201).identityId;
}

/** A permission body for one purpose, everything with the same status. */
export function permissionBody(
  t: Awaited<ReturnType<typeof configuredTenant>>,
  status: "approved" | "denied",
  requested: string,
  identityId = t.identityId,
) {
  return {
    identityId,
    requested,
    meta: { context: { collectionMethod: "web-dialog", application: "shop-web", language: "en" } },
    request: {
      purposes: [
        {
          purposeId: t.marketing,
          status,
          dataGroups: [
            { dataGroupId: t.email, status },
            { dataGroupId: t.location, status },
          ],
          processors: [{ partyId: t.processor, status }],
          recipients: [{ partyId: t.recipient, status }],
        },
      ],
    },
  };
}
