// Stand-in for customers' webhook endpoints in the api tests: every outbound fetch of the Worker under
// test lands here (miniflare `outboundService`). The path chooses the behaviour, the last segment is a
// per-test key: /ok/<key>, /fail-<n>/<key> (500 for the first n calls), /slow-<n>/<key> (the first n calls
// answer after 3 s), /always-500/<key>, /answer-<status>/<key> (always that status), /redirect/<key>.
// GET /__log/<key> returns what arrived for the key.
// The SMS providers' hosts (and sms-fakes.test, their log) go to the provider fakes (test/api/sms-provider-fakes.js).
// Requests to localhost on a port go on to the local OpenID Connect provider the single sign-on tests start.
// Turnstile's siteverify (challenges.cloudflare.com) is answered as Cloudflare documents its test secret keys:
// 1x…AA always passes, 2x…AA always fails, 3x…AA answers "token already spent"; any other secret is invalid.
const received = new Map();

const turnstileSecrets = {
  "1x0000000000000000000000000000000AA": { success: true, "error-codes": [] },
  "2x0000000000000000000000000000000AA": { success: false, "error-codes": ["invalid-input-response"] },
  "3x0000000000000000000000000000000AA": { success: false, "error-codes": ["timeout-or-duplicate"] },
};

async function siteverify(request) {
  const { secret, response } = await request.json();
  if (!response) return Response.json({ success: false, "error-codes": ["missing-input-response"] });
  const answer = turnstileSecrets[secret] ?? { success: false, "error-codes": ["invalid-input-secret"] };
  return Response.json({ ...answer, ...(answer.success ? { challenge_ts: new Date().toISOString(), hostname: "example.com" } : {}) });
}

const providerHosts = /(^|\.)twilio\.com$|^rest\.nexmo\.com$|\.sms\.api\.sinch\.com$|^api\.46elks\.com$|^sms-fakes\.test$|^billing\.fakes\.test$/;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (providerHosts.test(url.hostname)) return env.PROVIDERS.fetch(request);
    if (url.hostname === "tcf-lists.test") return env.TCF_LISTS.fetch(request);
    // The local OpenID Connect provider (test/sso/provider.ts), a Node server on a loopback port.
    if (url.hostname === "localhost" && url.port) return fetch(request);
    if (url.hostname === "challenges.cloudflare.com" && url.pathname === "/turnstile/v0/siteverify") return siteverify(request);
    const [scenario, key] = url.pathname.split("/").filter(Boolean);
    if (request.method === "GET" && scenario === "__log") {
      return Response.json(received.get(key) ?? []);
    }
    const calls = received.get(key) ?? [];
    received.set(key, calls);
    calls.push({
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    });
    const n = calls.length;
    const count = Number(scenario.split("-")[1] ?? 0);
    if (scenario === "ok") return new Response("ok");
    if (scenario === "always-500") return new Response("boom", { status: 500 });
    if (scenario.startsWith("answer-")) return new Response("answer", { status: count });
    if (scenario === "redirect") return Response.redirect("http://127.0.0.1/internal", 302);
    if (scenario.startsWith("fail-")) return n <= count ? new Response("boom", { status: 500 }) : new Response("ok");
    if (scenario.startsWith("slow-")) {
      if (n <= count) await new Promise((resolve) => setTimeout(resolve, 3000));
      return new Response("ok");
    }
    return new Response(`unknown scenario ${scenario}`, { status: 404 });
  },
};
