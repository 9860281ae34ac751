// The demo project `npm start` seeds through the admin API, so the first run shows the product working.
// Idempotent: a project named "Assent demo" is left as it is, except that its web client learns the origins of
// wherever `npm start` serves now (another port, `PORT=8788 npm start`, in the same folder shares the database).
export const demoName = "Assent demo";
const webClientName = "Demo website";
/** The demo's known customer (docs/privacy-center.md#try-it-on-the-demo). */
export const demoCustomerEmail = "anna@demo-shop.example";
/** What a web client may list at most (the admin API's limit). */
const maxOrigins = 50;

/** The origins the demo page has when the service answers at `base`: a loopback address under both its names. */
export function demoOrigins(base) {
  const url = new URL(base);
  const loopback = ["127.0.0.1", "localhost"];
  if (!loopback.includes(url.hostname)) return [url.origin];
  return loopback.map((name) => {
    url.hostname = name;
    return url.origin;
  });
}

export async function seedDemo(base, adminToken) {
  const admin = adminApi(base, adminToken);
  const { items } = await admin("GET", "/projects");
  const existing = items.find((p) => p.name === demoName);
  if (existing) {
    await allowOrigins(admin, existing.projectId, demoOrigins(base));
    return { projectId: existing.projectId, created: false };
  }
  return { projectId: await createDemoProject(base, adminToken), created: true };
}

const adminApi = (base, adminToken) => async (method, path, body) => {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`seed: ${method} ${path} answered ${res.status}: ${JSON.stringify(payload)}`);
  return payload;
};

/** A new project made as the demo is, under `name`, whatever exists already; returns its id. */
export async function createDemoProject(base, adminToken, name = demoName) {
  const admin = adminApi(base, adminToken);
  const project = await admin("POST", "/projects", {
    name,
    controller: { name: "Demo Shop AB", email: "privacy@demo-shop.example", address: "Storgatan 1, 111 22 Stockholm" },
    policies: { privacy: "https://demo-shop.example/privacy", terms: "https://demo-shop.example/terms" },
    jurisdiction: "SE",
    defaultLanguage: "en",
  });
  await admin("POST", `/projects/${project.projectId}/clients`, { name: webClientName, type: "web", allowedOrigins: demoOrigins(base) });
  await seedConfiguration(base, admin, project.projectId);
  // Google Consent Mode v2 on, with Google's suggested values; the purposes below say which types they stand for.
  await admin("PUT", `/projects/${project.projectId}/consent-mode`, {
    enabled: true,
    waitForUpdate: 500,
    urlPassthrough: false,
    adsDataRedaction: true,
  });
  // The privacy center's request form needs a way to prove who one is: email, captured in the email outbox locally
  // (no provider is configured), so docs/privacy-center.md#try-it-on-the-demo works from a fresh clone.
  await admin("PUT", `/projects/${project.projectId}/privacy-center`, { channels: { email: { aliasType: "urn:svc:email" } }, retentionDays: 90, theme: {} });
  return project.projectId;
}

/**
 * Adds `origins` to the demo's web client (made again if it was deleted), keeping the ones it has: an `npm start`
 * on the first port may still be running. Past the limit, the origins added longest ago go first.
 */
async function allowOrigins(admin, projectId, origins) {
  const { items } = await admin("GET", `/projects/${projectId}/clients`);
  const client = items.find((c) => c.type === "web" && c.name === webClientName);
  if (!client) {
    await admin("POST", `/projects/${projectId}/clients`, { name: webClientName, type: "web", allowedOrigins: origins });
    return;
  }
  if (origins.every((origin) => client.allowedOrigins.includes(origin))) return;
  const allowedOrigins = [...client.allowedOrigins.filter((origin) => !origins.includes(origin)), ...origins].slice(-maxOrigins);
  await admin("PUT", `/projects/${projectId}/clients/${client.clientId}`, { allowedOrigins });
}

const texts = (en, sv) => [
  { language: "en", text: en },
  { language: "sv", text: sv },
];

/** Parties, data groups and purposes in English and Swedish, written through the privacy API by a backend client. */
async function seedConfiguration(base, admin, projectId) {
  const { clientId, clientSecret } = await admin("POST", `/projects/${projectId}/clients`, { name: "Demo backend", type: "backend" });
  const tokenRes = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  if (!tokenRes.ok) throw new Error(`seed: token answered ${tokenRes.status}`);
  const { access_token: token } = await tokenRes.json();
  const post = async (path, body) => {
    const res = await fetch(`${base}/privacy/v2/projects/${projectId}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const payload = await res.json();
    if (!res.ok) throw new Error(`seed: POST ${path} answered ${res.status}: ${JSON.stringify(payload)}`);
    return payload;
  };
  const party = async (referenceId, details) =>
    (await post("/configurations/parties", { referenceId, type: "company", details: { jurisdiction: "SE", ...details } })).partyId;
  const shop = await party("demo-shop", {
    name: "Demo Shop AB",
    description: texts("Runs the shop and decides how your data is used.", "Driver butiken och bestämmer hur dina uppgifter används."),
    email: "privacy@demo-shop.example",
    address: "Storgatan 1, 111 22 Stockholm",
    nationalId: "556000-0000",
    policies: { privacy: "https://demo-shop.example/privacy", terms: "https://demo-shop.example/terms" },
  });
  const mailer = await party("mailer", {
    name: "Mailwise AB",
    description: texts("Sends our newsletters on our behalf.", "Skickar våra nyhetsbrev åt oss."),
    policies: { privacy: "https://mailwise.example/privacy" },
  });
  const adPartner = await party("ad-partner", {
    name: "Partner Media AB",
    description: texts("Shows you our offers on other sites.", "Visar dig våra erbjudanden på andra webbplatser."),
    policies: { privacy: "https://partner-media.example/privacy" },
  });
  const payments = await party("payments", {
    name: "Payflow AB",
    description: texts("Handles card payments for your orders.", "Hanterar kortbetalningar för dina beställningar."),
    policies: { privacy: "https://payflow.example/privacy" },
  });
  const group = async (referenceId, name, en, sv) => (await post("/configurations/data-groups", { referenceId, name, description: texts(en, sv) })).dataGroupId;
  const email = await group("email", "E-mail address", "Your e-mail address.", "Din e-postadress.");
  const name = await group("name", "Name", "Your first and last name.", "Ditt för- och efternamn.");
  const address = await group("address", "Postal address", "Where we deliver your orders.", "Dit vi levererar dina beställningar.");
  const purchases = await group("purchase-history", "Purchase history", "What you have bought from us.", "Vad du har köpt av oss.");
  const usage = await group("site-usage", "Site usage", "Pages you visit and features you use.", "Sidor du besöker och funktioner du använder.");
  const purpose = (body) => post("/configurations/purposes", { controllers: [shop], ...body });
  await purpose({
    referenceId: "marketing",
    name: "Marketing",
    legalGround: "consent",
    description: texts(
      "Newsletters and offers picked for you, also shown on partner sites.",
      "Nyhetsbrev och erbjudanden utvalda för dig, även på partners webbplatser.",
    ),
    dataGroups: [email, name, purchases],
    processors: [mailer],
    recipients: [adPartner],
    consentMode: ["ad_storage", "ad_user_data", "ad_personalization"],
  });
  await purpose({
    // Statistics cookies need consent in Sweden (no exemption for audience measurement holds there), whatever the
    // ground of the later analysis: the lawful pattern is consent (docs/jurisdictions.md#purposes-that-touch-the-device).
    referenceId: "analytics",
    name: "Improving the shop",
    legalGround: "consent",
    description: texts(
      "With your consent we study how the shop is used to make it better.",
      "Med ditt samtycke studerar vi hur butiken används för att göra den bättre.",
    ),
    dataGroups: [usage],
    consentMode: ["analytics_storage"],
  });
  await purpose({
    referenceId: "orders",
    name: "Delivering your orders",
    legalGround: "contract",
    description: texts("Needed to take payment and deliver what you buy.", "Behövs för att ta betalt och leverera det du köper."),
    dataGroups: [name, email, address],
    processors: [payments],
    consentMode: ["functionality_storage", "security_storage"],
    // The cart and checkout the visitor asked for: strictly necessary, so exempt from consent everywhere.
    exemption: { reason: "requested-service", regime: "eprivacy" },
  });
  await purpose({
    referenceId: "bookkeeping",
    name: "Bookkeeping",
    legalGround: "legal_requirement",
    description: texts("The Accounting Act requires us to keep receipts for seven years.", "Bokföringslagen kräver att vi sparar kvitton i sju år."),
    dataGroups: [name, purchases],
  });
  // A customer the shop knows by email, who can prove holding the address on the privacy center and file requests.
  await post("/identities", { referenceId: "demo-customer", aliases: [{ type: "urn:svc:email", identifier: demoCustomerEmail }] });
}
