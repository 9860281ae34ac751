// The Turnstile challenge on the hosted privacy center, in Chromium against a service of its own that asks for one on
// every code request (DAILY_CODES_PER_ADDRESS=0) with Cloudflare's always-passing test keys. Turnstile's script comes
// from Cloudflare's network, which tests cannot reach: a stand-in answers for https://challenges.cloudflare.com and
// renders with the documented dummy token those keys pass; siteverify is a stand-in on this machine
// (TURNSTILE_VERIFY_URL) that records what the service sent it. What is real: the page's HTML and CSP, the element's
// handling of 403 `challenge_required`, the token carried back, and the service's check of it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type LocalService } from "../../scripts/local-service.mjs";
import { launchBrowser } from "./browser";

const siteKey = "1x00000000000000000000AA";
const secretKey = "1x0000000000000000000000000000000AA";
const dummyToken = "XXXX.DUMMY.TOKEN.XXXX";

let service: LocalService;
let siteverify: Server;
let browser: Browser;
const verified: { secret?: string; response?: string }[] = [];

/** Siteverify as Cloudflare documents it for the test secret: any token passes. */
function startSiteverify(): Promise<string> {
  siteverify = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const asked = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { secret?: string; response?: string };
    verified.push(asked);
    const success = asked.secret === secretKey && Boolean(asked.response);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success, "error-codes": success ? [] : ["invalid-input-response"] }));
  });
  return new Promise((resolve) => siteverify.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/siteverify`)));
}

async function call(method: string, path: string, body?: unknown) {
  const answer = await fetch(service.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  expect(answer.ok, `${method} ${path}: ${answer.status} ${text}`).toBe(true);
  return text ? JSON.parse(text) : {};
}

beforeAll(async () => {
  const verifyUrl = await startSiteverify();
  service = await startService({
    name: "privacy-center-challenge",
    inspector: true,
    build: false,
    vars: { LOCAL_DEV: "true", TURNSTILE_SITE_KEY: siteKey, TURNSTILE_SECRET_KEY: secretKey, TURNSTILE_VERIFY_URL: verifyUrl, DAILY_CODES_PER_ADDRESS: "0" },
  });
  browser = await launchBrowser();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await new Promise((resolve) => siteverify?.close(resolve));
});

describe("the privacy center's challenge", () => {
  it("renders Turnstile with the configured site key when the service asks, and repeats the code request with its token", async () => {
    const { projectId } = await call("POST", "/admin/v1/projects", { name: "Challenged", controller: { name: "Challenged AB", email: "privacy@challenged.example" } });
    await call("POST", `/admin/v1/projects/${projectId}/clients`, { name: "Privacy center", type: "web", allowedOrigins: [service.baseUrl] });
    await call("PUT", `/admin/v1/projects/${projectId}/privacy-center`, { channels: { email: { aliasType: "urn:svc:email" } }, retentionDays: 90, theme: {} });

    const page = await browser.newPage();
    try {
      const rendered: string[] = [];
      await page.exposeFunction("turnstileRendered", (key: string) => void rendered.push(key));
      // Turnstile's script as a stand-in: it renders a box and hands over the dummy token the test keys pass.
      await page.route("https://challenges.cloudflare.com/**", (route) =>
        route.fulfill({
          contentType: "text/javascript",
          body: `window.turnstile = { render(container, options) {
            const box = document.createElement("div"); box.dataset.turnstile = options.sitekey; container.append(box);
            window.turnstileRendered(options.sitekey); setTimeout(() => options.callback(${JSON.stringify(dummyToken)}), 50); return "w1"; } };`,
        }),
      );
      const codeRequests: number[] = [];
      page.on("response", (response) => void (response.url().endsWith("/privacy-center/codes") && codeRequests.push(response.status())));
      await page.goto(`${service.baseUrl}/privacy-center/${projectId}`);
      const center = page.locator("assent-privacy-center");
      await center.locator("#address").fill("anna@challenged.example");
      await center.getByRole("button", { name: "Send code" }).click();
      await center.getByRole("status").waitFor();
      expect(rendered).toEqual([siteKey]);
      expect(codeRequests).toEqual([403, 202]);
      expect(verified).toContainEqual(expect.objectContaining({ secret: secretKey, response: dummyToken }));
      // The challenge's box is gone once passed.
      expect(await page.locator("[slot=challenge]").count()).toBe(0);
    } finally {
      await page.close();
    }
  }, 120_000);
});
