// A small client of the running service: the benchmark seeds through the real API wherever it can.
export function apiClient(baseUrl, adminToken) {
  const send = async (method, path, { token, body, form, expect } = {}) => {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload;
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      payload = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(baseUrl + path, { method, headers, body: payload });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (expect !== undefined ? res.status !== expect : !res.ok) {
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    }
    return parsed;
  };
  const admin = (method, path, body) => send(method, `/admin/v1${path}`, { token: adminToken, body });
  // One token per client for the whole run (they live an hour), as a real integration keeps it: the token endpoint
  // is rate-limited per address.
  const tokens = new Map();
  const tokenFor = ({ clientId, clientSecret }) => {
    if (!tokens.has(clientId)) {
      const form = { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret };
      tokens.set(clientId, send("POST", "/oauth/token", { form }).then((answer) => answer.access_token));
    }
    return tokens.get(clientId);
  };
  return { send, admin, tokenFor };
}
