// Local fakes of the SMS providers' documented HTTP contracts, for the api tests. The Worker's outbound fetches reach
// test/api/webhooks-receiver.js (miniflare `outboundService`), which forwards these providers' hosts here. Each fake
// checks what its provider checks (method, path, auth, required fields) and answers as the provider documents, with
// success and error bodies in the provider's own shape. Receivers choose an error: +46700000400 is an invalid
// number, +46700000402 is out of funds, +46700000429 is throttled, +46700000500 is a provider outage; a Sinch
// service plan whose id starts with "down" is in an outage for every receiver.
// Every request is recorded per account (Twilio account SID, Vonage api_key, Sinch service plan, 46elks user):
// GET http://sms-fakes.test/__log/<account> returns them.
const received = new Map();

const record = (account, entry) => {
  const calls = received.get(account) ?? [];
  calls.push(entry);
  received.set(account, calls);
};

const gsm = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà\f^{}\\[~]|€",
);
const isGsm = (text) => Array.from(text).every((c) => gsm.has(c));
/** Parts as the providers bill them (a rough count, enough for the answers' part lists). */
const parts = (text, unicode) => {
  const units = unicode ? text.length : Array.from(text).reduce((n, c) => n + ("\f^{}\\[~]|€".includes(c) ? 2 : 1), 0);
  const [single, part] = unicode ? [70, 67] : [160, 153];
  return units <= single ? 1 : Math.ceil(units / part);
};

const basic = (request) => {
  const header = request.headers.get("authorization") ?? "";
  if (!header.startsWith("Basic ")) return null;
  const decoded = new TextDecoder().decode(Uint8Array.from(atob(header.slice(6)), (c) => c.charCodeAt(0)));
  const colon = decoded.indexOf(":");
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
};

const isForm = (request) => (request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
const hex = (n) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");

// https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource
async function twilio(request, url, raw) {
  const error = (status, code, message) =>
    Response.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status });
  const match = /^\/2010-04-01\/Accounts\/(AC[0-9a-zA-Z]+)\/Messages\.json$/.exec(url.pathname);
  if (request.method !== "POST" || !match) return error(404, 20404, "The requested resource was not found");
  const account = match[1];
  const form = Object.fromEntries(new URLSearchParams(raw));
  record(account, { host: url.host, method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), form });
  const auth = basic(request);
  const authorised =
    auth && ((auth.user === account && auth.password === "good-token") || (auth.user.startsWith("SK") && auth.password === "good-key-secret"));
  if (!authorised) return error(401, 20003, "Authenticate");
  if (!isForm(request)) return error(400, 21000, "Expected form-encoded parameters");
  if (!form.To) return error(400, 21604, "A 'To' phone number is required.");
  if (!form.From && !form.MessagingServiceSid) return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required.");
  if (!form.Body) return error(400, 21602, "Message body is required.");
  if (form.ValidityPeriod !== undefined && !(Number(form.ValidityPeriod) >= 1 && Number(form.ValidityPeriod) <= 36000)) {
    return error(400, 21623, "The ValidityPeriod must be between 1 and 36000 seconds.");
  }
  if (form.To === "+46700000400") return error(400, 21211, `The 'To' number ${form.To} is not a valid phone number.`);
  if (form.To === "+46700000402") return error(400, 30036, "Account balance too low.");
  if (form.To === "+46700000429") return error(429, 20429, "Too Many Requests");
  if (form.To === "+46700000500") return error(500, 20500, "An internal server error has occurred");
  const sid = `SM${hex(16)}`;
  return Response.json(
    {
      sid,
      account_sid: account,
      to: form.To,
      from: form.From ?? null,
      messaging_service_sid: form.MessagingServiceSid ?? null,
      body: form.Body,
      status: form.MessagingServiceSid ? "accepted" : "queued",
      num_segments: String(parts(form.Body, !isGsm(form.Body))),
      direction: "outbound-api",
      error_code: null,
      error_message: null,
      uri: `/2010-04-01/Accounts/${account}/Messages/${sid}.json`,
    },
    { status: 201 },
  );
}

// https://developer.vonage.com/en/api/sms#send-an-sms: always 200; each part has its own status ("0" is success).
async function vonage(request, url, raw) {
  if (request.method !== "POST" || url.pathname !== "/sms/json") return new Response("Not Found", { status: 404 });
  const form = isForm(request) ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw || "{}");
  const account = form.api_key ?? "unknown";
  record(account, { host: url.host, method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), form });
  const refuse = (status, text) =>
    Response.json({ "message-count": "1", messages: [{ to: form.to, status, "error-text": text }] });
  for (const field of ["api_key", "api_secret", "from", "to", "text"]) {
    if (!form[field]) return refuse("2", `Missing ${field}`);
  }
  if (form.api_secret !== "good-secret") return refuse("4", "Bad Credentials");
  if (form.ttl !== undefined && !(Number(form.ttl) >= 20000 && Number(form.ttl) <= 604800000)) return refuse("3", "Invalid ttl");
  if (!/^[1-9][0-9]{6,14}$/.test(form.to)) return refuse("3", "Invalid to address");
  if (form.to === "46700000400") return refuse("3", "Invalid to address");
  if (form.to === "46700000402") return refuse("9", "Quota Exceeded - rejected");
  if (form.to === "46700000429") return refuse("1", "Throughput Rate Exceeded - please wait [ 30 ] and retry");
  if (form.to === "46700000500") return refuse("5", "Internal Error");
  const unicode = form.type === "unicode";
  const count = parts(form.text, unicode);
  return Response.json({
    "message-count": String(count),
    messages: Array.from({ length: count }, () => ({
      to: form.to,
      "message-id": hex(16),
      status: "0",
      "remaining-balance": "3.14159265",
      "message-price": "0.03330000",
      network: "24001",
      "client-ref": form["client-ref"],
    })),
  });
}

// https://developers.sinch.com/docs/sms/api-reference/sms/tag/Batches/#tag/Batches/operation/SendSMS
async function sinch(request, url, raw) {
  const error = (status, code, text) => Response.json({ code, text }, { status });
  const match = /^\/xms\/v1\/([^/]+)\/batches$/.exec(url.pathname);
  if (request.method !== "POST" || !match) return error(404, "not_found", "Not found");
  const account = decodeURIComponent(match[1]);
  let body = null;
  try {
    body = JSON.parse(raw);
  } catch {
    // recorded as null; answered below
  }
  record(account, { host: url.host, method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), json: body });
  if (request.headers.get("authorization") !== "Bearer good-token") return error(401, "unauthorized", "Invalid credentials");
  if (account.startsWith("down")) return error(503, "service_unavailable", "Try again later");
  if (!(request.headers.get("content-type") ?? "").startsWith("application/json") || !body) {
    return error(400, "syntax_invalid_json", "The JSON structure is invalid");
  }
  if (!Array.isArray(body.to) || body.to.length === 0 || !body.from || !body.body) {
    return error(400, "syntax_constraint_violation", "to, from and body are required");
  }
  if (body.expire_at !== undefined && !(Date.parse(body.expire_at) > Date.now() && Date.parse(body.expire_at) <= Date.now() + 3 * 86400000)) {
    return error(400, "syntax_invalid_parameter_format", "expire_at must lie within 3 days");
  }
  if (body.to.includes("+46700000400")) return error(400, "syntax_invalid_parameter_format", "Invalid recipient +46700000400");
  if (body.to.includes("+46700000402")) return error(403, "forbidden", "Insufficient funds");
  if (body.to.includes("+46700000429")) return error(429, "too_many_requests", "Rate limited");
  if (body.to.includes("+46700000500")) return error(503, "service_unavailable", "Try again later");
  const stamp = new Date().toISOString();
  return Response.json(
    {
      id: `01${hex(12).toUpperCase()}`,
      to: body.to,
      from: body.from,
      canceled: false,
      body: body.body,
      type: "mt_text",
      created_at: stamp,
      modified_at: stamp,
      delivery_report: body.delivery_report ?? "none",
      ...(body.callback_url ? { callback_url: body.callback_url } : {}),
      ...(body.client_reference ? { client_reference: body.client_reference } : {}),
    },
    { status: 201 },
  );
}

// https://46elks.com/docs/send-sms: form-encoded; errors are plain text.
async function elks(request, url, raw) {
  if (request.method !== "POST" || url.pathname !== "/a1/sms") return new Response("Not found", { status: 404 });
  const auth = basic(request);
  const form = Object.fromEntries(new URLSearchParams(raw));
  record(auth?.user ?? "unknown", { host: url.host, method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), form });
  if (!auth || auth.password !== "good-password") return new Response("API access requires Basic HTTP authentication", { status: 401 });
  for (const field of ["from", "to", "message"]) {
    if (!form[field]) return new Response(`Missing key ${field}`, { status: 400 });
  }
  if (!/^\+[1-9][0-9]{6,14}$/.test(form.to) || form.to === "+46700000400") return new Response("Invalid to number", { status: 400 });
  if (form.to === "+46700000402") return new Response("Not enough credits", { status: 403 });
  if (form.to === "+46700000429") return new Response("Too many requests", { status: 429 });
  if (form.to === "+46700000500") return new Response("Internal server error", { status: 500 });
  return Response.json({
    id: `s${hex(16)}`,
    status: "created",
    direction: "outgoing",
    from: form.from,
    to: form.to,
    created: new Date().toISOString(),
    parts: parts(form.message, !isGsm(form.message)),
    message: form.message,
    cost: 3500,
    estimated_cost: 3500,
  });
}

// The operator's billing system as docs/hub.md#billing-lookup documents it: GET /accounts/<id> with a bearer.
// Ids choose the answer: missing (404), broken (500), slow (answers after 3 s), garbled (not an account).
async function billing(request, url) {
  const id = decodeURIComponent(url.pathname.replace(/^\/accounts\//, ""));
  record(`billing-${id}`, { method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers) });
  if (request.headers.get("authorization") !== "Bearer billing-secret") return new Response("unauthorized", { status: 401 });
  if (id === "missing") return Response.json({ error: "not found" }, { status: 404 });
  if (id === "broken") return new Response("database down", { status: 500 });
  if (id === "slow") await new Promise((resolve) => setTimeout(resolve, 3000));
  if (id === "garbled") return Response.json({ hello: "world" });
  return Response.json({ tscid: `T-${id}`, customerCacheId: `C-${id}`, assets: [{ id: "a1", display_name: "Phone" }], extra: true });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const raw = request.method === "GET" ? "" : new TextDecoder().decode(await request.arrayBuffer());
    if (url.hostname === "sms-fakes.test") {
      const [, account] = url.pathname.split("/").filter(Boolean);
      return Response.json(received.get(account) ?? []);
    }
    if (url.hostname === "billing.fakes.test") return billing(request, url);
    if (url.hostname.endsWith("twilio.com")) return twilio(request, url, raw);
    if (url.hostname === "rest.nexmo.com") return vonage(request, url, raw);
    if (url.hostname.endsWith(".sms.api.sinch.com")) return sinch(request, url, raw);
    if (url.hostname === "api.46elks.com") return elks(request, url, raw);
    return new Response(`no fake for ${url.hostname}`, { status: 502 });
  },
};
