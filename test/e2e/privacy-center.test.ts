// The privacy center's whole journey in Debian's Chromium, against a service of its own (wrangler dev, production
// abuse limits) whose SMS route hands messages to a provider fake (the 46elks fake of test/api/sms-provider-fakes.js,
// served here over HTTP): the browser's decisions with their receipts verified in the page, a change of them through
// the widget, a verification by email (the code read from the captured email outbox) and one by SMS (read from what
// the fake received), the person's requests filed, and the statuses the operator sets through the API followed.
import { createServer, type Server } from "node:http";
import { text } from "node:stream/consumers";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type LocalService } from "../../scripts/local-service.mjs";
import providerFakes from "../api/sms-provider-fakes.js";
import { artifactPath, launchBrowser } from "./browser";
import { expectAccessible, poll } from "./portal-helpers";

type Json = Record<string, any>;
const smsAccount = "privacy-center-e2e";

let service: LocalService;
let fake: Server;
let browser: Browser;
let base: string;

/** 46elks as the fake implements it, over HTTP on this machine (the route's `baseUrl`); `/__log` shows what it got. */
function startProviderFake(): Promise<string> {
  fake = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const host = req.url!.startsWith("/__log/") ? "sms-fakes.test" : "api.46elks.com";
    const answer: Response = await providerFakes.fetch(
      new Request(`http://${host}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === "GET" ? undefined : Buffer.concat(chunks),
      }),
    );
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(answer.status, headers);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => fake.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(fake.address() as AddressInfo).port}`)));
}

async function call(method: string, path: string, token: string, body?: unknown): Promise<Json> {
  const answer = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  expect(answer.ok, `${method} ${path}: ${answer.status} ${text}`).toBe(true);
  return text ? JSON.parse(text) : {};
}

/** A project with a consent purpose and a legitimate-interest one, a web client for this origin, and a subject. */
async function project() {
  const admin = service.adminToken;
  const { projectId } = await call("POST", "/admin/v1/projects", admin, {
    name: "Fjällbutiken",
    controller: { name: "Fjällbutiken AB", email: "privacy@fjall.example" },
    policies: { privacy: "https://fjall.example/privacy" },
  });
  const backend = await call("POST", `/admin/v1/projects/${projectId}/clients`, admin, { name: "Backend", type: "backend" });
  await call("POST", `/admin/v1/projects/${projectId}/clients`, admin, { name: "Privacy center", type: "web", allowedOrigins: [base] });
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: backend.clientId, client_secret: backend.clientSecret });
  const token = (await (await fetch(`${base}/oauth/token`, { method: "POST", body: form })).json()).access_token as string;
  const root = `/privacy/v2/projects/${projectId}`;
  const { partyId } = await call("POST", `${root}/configurations/parties`, token, { referenceId: "fjall", type: "company", details: { name: "Fjällbutiken AB" } });
  const { dataGroupId } = await call("POST", `${root}/configurations/data-groups`, token, { referenceId: "email", name: "Email address" });
  const purpose = (referenceId: string, name: string, legalGround: string) =>
    call("POST", `${root}/configurations/purposes`, token, { referenceId, name, legalGround, dataGroups: [dataGroupId], controllers: [partyId] });
  const newsletter = await purpose("newsletter", "Newsletter", "consent");
  const analytics = await purpose("analytics", "Product analytics", "legitimate_interests");
  await call("PUT", `/admin/v1/projects/${projectId}/privacy-center`, admin, {
    channels: { email: { aliasType: "urn:svc:email" }, sms: { aliasType: "urn:svc:phone" } },
    retentionDays: 90,
    theme: { "--assent-accent": "#0b6e4f" },
  });
  const { identityId } = await call("POST", `${root}/identities`, token, {
    aliases: [
      { type: "urn:svc:email", identifier: "anna@fjall.example" },
      { type: "urn:svc:phone", identifier: "+46701234567" },
    ],
  });
  // A decision the person made elsewhere (their account page, say): its receipt shows once they are verified.
  await call("POST", `${root}/permissions`, token, {
    identityId,
    requested: new Date(Date.now() - 1000).toISOString(),
    meta: { context: { collectionMethod: "web-dialog", language: "en" } },
    request: { purposes: [{ purposeId: newsletter.purposeId, status: "approved", dataGroups: [{ dataGroupId, status: "approved" }] }] },
  });
  return { projectId, token, root, identityId, analyticsId: analytics.purposeId as string };
}

const emails = async (projectId: string, to: string) =>
  (await call("GET", `/admin/v1/projects/${projectId}/email-outbox?to=${encodeURIComponent(to)}`, service.adminToken)).items as { text: string | null }[];

/** The code of the newest email to `to`, once there are more than `before` (the code is delivered after the answer). */
const emailedCode = async (projectId: string, to: string, before = 0) => {
  let code = "";
  await poll(async () => {
    const items = await emails(projectId, to);
    code = items.length > before ? (/\b(\d{6})\b/.exec(items[0]?.text ?? "")?.[1] ?? "") : "";
    return code;
  }).toMatch(/^\d{6}$/);
  return code;
};

const smsCode = async (fakeUrl: string, to: string) => {
  let code = "";
  await poll(async () => {
    const log = (await (await fetch(`${fakeUrl}/__log/${smsAccount}`)).json()) as { form: { to: string; message: string } }[];
    code = /\b(\d{6})\b/.exec(log.filter((m) => m.form.to === to).at(-1)?.form.message ?? "")?.[1] ?? "";
    return code;
  }).toMatch(/^\d{6}$/);
  return code;
};

const center = (page: Page) => page.locator("assent-privacy-center");

/** Every receipt the page shows has been checked against the service's keys and verifies; exactly `count` of them. */
const expectReceiptsValid = (page: Page, count: number) =>
  poll(() => center(page).locator("[data-receipt]").evaluateAll((shown) => shown.map((receipt) => receipt.getAttribute("data-receipt")))).toEqual(
    Array(count).fill("valid"),
  );

/** The aliases the page says the verified address names, as `type identifier`. */
const namedAliases = (page: Page) => center(page).locator("[data-alias]").allInnerTexts();

async function signInToPortal(page: Page) {
  await page.goto(`${base}/portal/`);
  await page.getByLabel("Admin token").fill(service.adminToken);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
}

async function verify(page: Page, channel: "email" | "sms", address: string, code: () => Promise<string>) {
  if (channel === "sms") await center(page).getByLabel("Phone number, with country code (+46…)", { exact: false }).first().waitFor();
  const input = center(page).locator("#address");
  await input.fill(address);
  await center(page).getByRole("button", { name: "Send code" }).click();
  await center(page).getByRole("status").waitFor();
  await center(page).locator("#code").fill(await code());
  await center(page).getByRole("button", { name: "Verify" }).click();
  await center(page).getByRole("heading", { name: /^Identity verified by/ }).waitFor();
}

let fakeUrl: string;

beforeAll(async () => {
  fakeUrl = await startProviderFake();
  service = await startService({
    name: "privacy-center",
    // Its own inspector port: the suite's service holds the default one.
    inspector: true,
    // The client bundles are built once, by the e2e global setup.
    build: false,
    vars: {
      LOCAL_DEV: "true",
      SMS_ROUTES: JSON.stringify({ sms_hub: { adapter: "46elks", baseUrl: fakeUrl } }),
      SMS_CREDENTIALS: JSON.stringify({ sms_hub: { username: smsAccount, password: "good-password" } }),
    },
  });
  base = service.baseUrl;
  browser = await launchBrowser();
  // A bound, not a wait: starting a service took over 180 s at a load of 15 to 20 on the two-core machine.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await new Promise((resolve) => fake?.close(resolve));
});

describe("the privacy center in Chromium", () => {
  it("shows the browser's receipts verified, verifies by email and SMS, files requests and follows their statuses", async () => {
    const subject = await project();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${base}/privacy-center/${subject.projectId}`);
    await center(page).getByRole("heading", { name: "Privacy center", level: 1 }).waitFor();
    await center(page).getByText("No choices are recorded on this browser yet.").waitFor();

    // A change of choices through the widget's preferences, then the decision with its receipt, checked in the page.
    await center(page).getByRole("button", { name: "Change my choices" }).click();
    const widgetDialog = page.locator("assent-consent dialog");
    await widgetDialog.waitFor();
    await widgetDialog.getByRole("button", { name: "Accept all" }).click();
    await expectReceiptsValid(page, 1);
    await expect(center(page).locator("[data-receipt]").innerText()).resolves.toContain("Signed receipt verified");
    // The widget's note that the choice was saved (with its own receipt link) is closed as a visitor would.
    const savedNote = page.locator("assent-consent [part~=banner]");
    await savedNote.getByRole("button", { name: "Close" }).click();
    await savedNote.waitFor({ state: "hidden" });

    // Email: the code from the captured outbox.
    await verify(page, "email", "Anna@Fjall.example", () => emailedCode(subject.projectId, "anna@fjall.example"));
    // The browser's decision and the one the person made elsewhere, each with its receipt verified in the page.
    await expectReceiptsValid(page, 2);
    await expect(center(page).getByText("This address names:").count()).resolves.toBe(1);
    await expect(namedAliases(page)).resolves.toEqual(["urn:svc:email anna@fjall.example", "urn:svc:phone +46701234567"]);
    await center(page).getByRole("radio", { name: /A copy of my data/ }).check();
    await center(page).getByRole("button", { name: "Send request" }).click();
    const access = center(page).locator('li[data-kind="access"]');
    await access.waitFor();
    await expect(access.innerText()).resolves.toMatch(/Answer due by/);
    await expect(access.innerText()).resolves.toMatch(/two further months/);
    await center(page).getByRole("radio", { name: /Erase my data/ }).check();
    await center(page).getByRole("button", { name: "Send request" }).click();
    await center(page).locator('li[data-kind="erasure"]').waitFor();
    await center(page).getByRole("radio", { name: /Stop using my data/ }).check();
    await center(page).getByRole("checkbox", { name: "Product analytics" }).check();
    await center(page).getByRole("button", { name: "Send request" }).click();
    await center(page).locator('li[data-kind="objection"]').waitFor();
    // The objection is a decision too, with its own receipt.
    await expectReceiptsValid(page, 3);
    await page.screenshot({ path: artifactPath("privacy-center-1280"), fullPage: true });
    await expectAccessible(page, "the privacy center");

    // The operator moves them through the API; the page (after a new verification, by SMS) follows.
    const listed = async (family: string) => (await call("GET", `${subject.root}/${family}?identityId=${subject.identityId}`, subject.token)).items as Json[];
    const [accessRequest] = await listed("accesses");
    const [erasure] = await listed("erasures");
    const [objection] = await listed("objections");
    expect(accessRequest.meta.context.verification.method).toBe("email");
    await call("PUT", `${subject.root}/accesses/${accessRequest.requestId}`, subject.token, { status: "completed" });
    await call("PUT", `${subject.root}/erasures/${erasure.requestId}`, subject.token, { status: "in_progress" });
    await call("PUT", `${subject.root}/objections/${objection.requestId}`, subject.token, { status: "rejected" });

    const phonePage = await context.newPage();
    await phonePage.goto(`${base}/privacy-center/${subject.projectId}`);
    await center(phonePage).getByRole("radio", { name: /Phone number/ }).check();
    await verify(phonePage, "sms", "+46701234567", () => smsCode(fakeUrl, "+46701234567"));
    await expect(center(phonePage).getByRole("heading", { name: /^Identity verified by SMS/ }).count()).resolves.toBe(1);
    await expectReceiptsValid(phonePage, 3);
    const status = (kind: string) => center(phonePage).locator(`li[data-kind="${kind}"] [data-status]`).getAttribute("data-status");
    await poll(() => status("access")).toBe("completed");
    await expect(status("erasure")).resolves.toBe("in_progress");
    await expect(status("objection")).resolves.toBe("rejected");
    const link = center(phonePage).getByRole("link", { name: "Download my data" });
    const [download] = await Promise.all([phonePage.waitForEvent("download"), link.click()]);
    // Read through the connection: the file is on the run's Chromium's side (test/e2e/browser.ts).
    const exported = JSON.parse(await text(await download.createReadStream()));
    expect(exported.identity.identityId).toBe(subject.identityId);
    expect(exported.accesses).toHaveLength(1);
    expect(errors).toEqual([]);

    // The operator's portal says how each request's subject was verified, and holds the project's settings.
    const portal = await context.newPage();
    await signInToPortal(portal);
    await portal.goto(`${base}/portal/projects/${subject.projectId}/requests/erasures`);
    await expect(portal.locator(`tr[data-request-id="${erasure.requestId}"] [data-verified]`).innerText()).resolves.toMatch(/^Identity verified by email at /);
    await portal.goto(`${base}/portal/projects/${subject.projectId}/settings`);
    await portal.getByRole("heading", { name: "Privacy center", level: 3 }).waitFor();
    await expect(portal.getByLabel("Keep verification records for (days)").inputValue()).resolves.toBe("90");

    // At 375 px, in German.
    const narrow = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: "de-DE", deviceScaleFactor: 2, isMobile: true });
    const mobile = await narrow.newPage();
    await mobile.goto(`${base}/privacy-center/${subject.projectId}`);
    await center(mobile).getByRole("heading", { name: "Datenschutzcenter", level: 1 }).waitFor();
    await mobile.screenshot({ path: artifactPath("privacy-center-375"), fullPage: true });
    await narrow.close();
    await context.close();
  });

  it("sends the code and says how the person was verified in the page's language", async () => {
    const subject = await project();
    const context = await browser.newContext({ locale: "de-DE" });
    const page = await context.newPage();
    await page.goto(`${base}/privacy-center/${subject.projectId}`);
    await center(page).getByRole("heading", { name: "Datenschutzcenter", level: 1 }).waitFor();
    await center(page).locator("#address").fill("anna@fjall.example");
    await center(page).getByRole("button", { name: "Code senden" }).click();
    await center(page).getByRole("status").waitFor();
    const code = await emailedCode(subject.projectId, "anna@fjall.example");
    // The browser's own Accept-Language chose the mail's words, as its languages chose the page's.
    const [mail] = await emails(subject.projectId, "anna@fjall.example");
    expect(mail.text).toBe(
      `${code} ist Ihr Code für das Datenschutzcenter von Fjällbutiken AB. Er gilt 10 Minuten.\n\nWenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.`,
    );
    await center(page).locator("#code").fill(code);
    await center(page).getByRole("button", { name: "Prüfen" }).click();
    await center(page).getByRole("heading", { name: /^Identität per E-Mail geprüft am / }).waitFor();
    await expect(center(page).getByText("Diese Adresse gehört zu:").count()).resolves.toBe(1);
    await expect(namedAliases(page)).resolves.toEqual(["urn:svc:email anna@fjall.example", "urn:svc:phone +46701234567"]);
    await context.close();
  });

  it("applies the theme the operator sets in the portal, and refuses a value that is not plain CSS", async () => {
    const subject = await project();
    const context = await browser.newContext({ locale: "en-GB" });
    const page = await context.newPage();
    const accentOf = async () => {
      await page.goto(`${base}/privacy-center/${subject.projectId}`);
      const button = center(page).getByRole("button", { name: "Change my choices" });
      await button.waitFor();
      return button.evaluate((element) => getComputedStyle(element).borderTopColor);
    };
    // The theme the project was created with (--assent-accent #0b6e4f).
    await expect(accentOf()).resolves.toBe("rgb(11, 110, 79)");

    const portal = await context.newPage();
    await signInToPortal(portal);
    await portal.goto(`${base}/portal/projects/${subject.projectId}/settings`);
    const accent = portal.getByLabel("Accent colour", { exact: true });
    await expect(accent.inputValue()).resolves.toBe("#0b6e4f");
    await accent.fill("#8a1c7c; background: url(https://evil.example)");
    await portal.getByRole("button", { name: "Save privacy center" }).click();
    await portal.getByRole("alert").filter({ hasText: "The privacy center settings were not saved" }).waitFor();
    await expectAccessible(portal, "the privacy center settings with a refused theme");
    const saved = async () => (await call("GET", `/admin/v1/projects/${subject.projectId}/privacy-center`, service.adminToken)).theme;
    await expect(saved()).resolves.toEqual({ "--assent-accent": "#0b6e4f" });

    await accent.fill("#8a1c7c");
    await portal.getByLabel("Corner radius").fill("4px");
    await portal.getByRole("button", { name: "Save privacy center" }).click();
    await poll(saved).toEqual({ "--assent-accent": "#8a1c7c", "--assent-radius": "4px" });
    await expect(accentOf()).resolves.toBe("rgb(138, 28, 124)");
    await expect(center(page).locator("section").first().evaluate((element) => getComputedStyle(element).borderTopLeftRadius)).resolves.toBe("4px");
    await context.close();
  });
});
