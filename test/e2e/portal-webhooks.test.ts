// The portal's webhooks page end to end, in Debian's Chromium, against a real receiver: a Node HTTP server on
// 127.0.0.1 that the service (run with ALLOW_LOOPBACK_WEBHOOKS=true, as `npm start` runs it) delivers to.
// Signatures are checked with the Node verification code of docs/webhooks.md#signatures and the secrets the portal showed.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessToken,
  api,
  closeSecretDialog,
  createBackendClient,
  dialog,
  expectAccessible,
  openPortalBrowser,
  poll,
  type PortalBrowser,
  shot,
  signIn,
  submitNewProject,
} from "./portal-helpers";

/** The verification of docs/webhooks.md#signatures, verbatim: any `v1,` signature made with the secret. */
function verify(secret: string, headers: IncomingHttpHeaders, body: string) {
  const { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures = "" } = headers as Record<string, string>;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false; // stale or replayed
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((signature) => {
    const given = Buffer.from(signature.slice(3), "base64");
    return signature.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/** Deliveries wait this long at most: a queue hand-off and a consumer batch in wrangler dev, on a shared machine. */
const deliveryTimeout = 45_000;

let portal: PortalBrowser;
let page: Page;
let receiver: Server;
let receiverUrl = "";
const received: Received[] = [];

/** What the flow creates, carried from step to step. */
const flow = { projectId: "", token: "", firstSecret: "", secondSecret: "", eventId: "", identityId: "" };

beforeAll(async () => {
  portal = await openPortalBrowser();
  page = portal.page;
  // A customer's endpoint: records each delivery and answers 204, as the receiver of docs/webhooks.md#signatures does for valid ones.
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/assent`;
});

afterAll(async () => {
  await portal?.browser.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const webhookCard = () => page.getByRole("region", { name: `Webhook ${receiverUrl}` });
const deliveryRows = () => webhookCard().locator("tbody tr");
const cell = async (row: Locator, column: string) => (await row.locator(`td[data-label="${column}"]`).innerText()).trim();

describe("the portal's webhooks page", () => {
  it("signs in, creates a project and a backend client whose token the flow uses", async () => {
    await signIn(page);
    await page.getByRole("button", { name: "New project" }).click();
    flow.projectId = await submitNewProject(page, {
      name: "Fjäll Webhooks",
      legalName: "Fjäll Webhooks AB",
      email: "privacy@fjall.example",
      privacyPolicy: "https://fjall.example/privacy",
      jurisdiction: "SE",
    });
    const client = await createBackendClient(page, "Fulfilment backend");
    await closeSecretDialog(page);
    flow.token = await accessToken(client.clientId, client.clientSecret);
  });

  it("creates a webhook to the local receiver and shows its secret once", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 2 }).waitFor();
    await page.getByText("No webhooks").waitFor();

    await page.getByRole("button", { name: "New webhook" }).click();
    const form = dialog(page, "new-webhook");
    // Without events the API's validation problem names the field.
    await form.getByLabel("Endpoint URL").fill(receiverUrl);
    await form.getByRole("button", { name: "Create webhook" }).click();
    await poll(() => form.getByRole("alert").textContent()).toContain("Events");

    await form.getByLabel("Description").fill("Order system");
    await form.getByLabel("identity.deleted").check();
    await form.getByLabel("permission.created").check();
    await expectAccessible(page, "new webhook dialog");
    await form.getByRole("button", { name: "Create webhook" }).click();

    const secretDialog = dialog(page, "webhook-secret");
    await secretDialog.getByRole("heading", { name: "Webhook created" }).waitFor();
    expect(await secretDialog.textContent()).toContain("It is shown only once");
    flow.firstSecret = await secretDialog.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(flow.firstSecret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await expectAccessible(page, "webhook secret dialog");
    await secretDialog.getByRole("button", { name: "I have stored the secret" }).click();
    await poll(() => secretDialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(await page.content()).not.toContain(flow.firstSecret);

    const card = webhookCard();
    await card.waitFor();
    expect(await card.textContent()).toContain("Order system");
    expect(await card.getByRole("list", { name: "Events" }).getByRole("listitem").allTextContents()).toEqual(["permission.created", "identity.deleted"]);
  });

  it("delivers an event, signed with the shown secret, and lists it in the delivery log", async () => {
    const identity = await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/identities`, { referenceId: "customer-77" });
    expect(identity.status).toBe(201);
    flow.identityId = identity.body.identityId;
    expect((await api(flow.token, "DELETE", `/privacy/v2/projects/${flow.projectId}/identities/${flow.identityId}`)).status).toBe(204);

    await poll(() => received.length, deliveryTimeout).toBe(1);
    const [delivery] = received;
    expect(delivery.path).toBe("/hooks/assent");
    expect(verify(flow.firstSecret, delivery.headers, delivery.body)).toBe(true);
    expect(verify(`whsec_${Buffer.from("not the secret").toString("base64")}`, delivery.headers, delivery.body)).toBe(false);
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({ type: "identity.deleted", projectId: flow.projectId, id: delivery.headers["webhook-id"] });
    expect(JSON.stringify(payload.data)).toContain(flow.identityId);
    flow.eventId = payload.id;

    const card = webhookCard();
    await card.getByText("Delivery log").click();
    const row = deliveryRows().first();
    await poll(() => row.textContent(), deliveryTimeout).toContain("succeeded");
    expect(await deliveryRows().count()).toBe(1);
    expect(await cell(row, "Event")).toBe("identity.deleted");
    expect(await cell(row, "Attempts")).toBe("1");
    expect(await cell(row, "Last answer")).toMatch(/^204 in \d+ ms$/);
  });

  it("rotates the secret; a redelivery from the log is signed with both secrets during the grace period", async () => {
    const card = webhookCard();
    await card.getByRole("button", { name: `Rotate secret of ${receiverUrl}` }).click();
    const confirm = dialog(page, "rotate-webhook-secret");
    expect(await confirm.textContent()).toContain("both secrets sign");
    expect(await confirm.getByLabel("Previous secret keeps signing for").inputValue()).toBe("86400");
    await expectAccessible(page, "rotate secret dialog");
    await confirm.getByRole("button", { name: "Rotate secret" }).click();

    const secretDialog = dialog(page, "webhook-secret");
    await secretDialog.getByRole("heading", { name: "New signing secret" }).waitFor();
    expect(await secretDialog.textContent()).toMatch(/previous secret keeps signing until/i);
    flow.secondSecret = await secretDialog.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(flow.secondSecret).toMatch(/^whsec_/);
    expect(flow.secondSecret).not.toBe(flow.firstSecret);
    await secretDialog.getByRole("button", { name: "I have stored the secret" }).click();
    await poll(() => card.textContent()).toMatch(/previous secret also signs until/i);

    const original = deliveryRows().first();
    await original.getByRole("button", { name: /^Redeliver identity\.deleted/ }).click();
    await poll(() => received.length, deliveryTimeout).toBe(2);
    const again = received[1];
    // The same event (same webhook-id) with a fresh timestamp, signed by the new secret and by the previous one.
    expect(again.headers["webhook-id"]).toBe(flow.eventId);
    expect(again.body).toBe(received[0].body);
    expect(String(again.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(flow.secondSecret, again.headers, again.body)).toBe(true);
    expect(verify(flow.firstSecret, again.headers, again.body)).toBe(true);

    // The log shows the redelivery, newest first, once it has settled.
    await poll(() => deliveryRows().count(), deliveryTimeout).toBe(2);
    const newest = deliveryRows().first();
    await poll(() => newest.textContent(), deliveryTimeout).toContain("succeeded");
    expect(await cell(newest, "Event")).toBe("identity.deleted\nRedelivery");
    expect(await cell(newest, "Attempts")).toBe("1");
    expect(portal.pageErrors).toEqual([]);

    await expectAccessible(page, "webhooks");
    await shot(page, "webhooks");
  });
});
