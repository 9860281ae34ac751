// Stand-in for customers' webhook endpoints in the api tests: every outbound fetch of the Worker under
// test lands here (miniflare `outboundService`). The path chooses the behaviour, the last segment is a
// per-test key: /ok/<key>, /fail-<n>/<key> (500 for the first n calls), /slow-<n>/<key> (the first n calls
// answer after 3 s), /always-500/<key>, /redirect/<key>. GET /__log/<key> returns what arrived for the key.
const received = new Map();

export default {
  async fetch(request) {
    const url = new URL(request.url);
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
    if (scenario === "redirect") return Response.redirect("http://127.0.0.1/internal", 302);
    if (scenario.startsWith("fail-")) return n <= count ? new Response("boom", { status: 500 }) : new Response("ok");
    if (scenario.startsWith("slow-")) {
      if (n <= count) await new Promise((resolve) => setTimeout(resolve, 3000));
      return new Response("ok");
    }
    return new Response(`unknown scenario ${scenario}`, { status: 404 });
  },
};
