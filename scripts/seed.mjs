// The demo project `npm start` seeds through the admin API, so the first run shows the product working.
// Idempotent: a project named "Assent demo" is left as it is.
export const demoName = "Assent demo";

export async function seedDemo(base, adminToken) {
  const admin = async (method, path, body) => {
    const res = await fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const payload = res.status === 204 ? null : await res.json();
    if (!res.ok) throw new Error(`seed: ${method} ${path} answered ${res.status}: ${JSON.stringify(payload)}`);
    return payload;
  };
  const { items } = await admin("GET", "/projects");
  const existing = items.find((p) => p.name === demoName);
  if (existing) return { projectId: existing.projectId, created: false };

  const project = await admin("POST", "/projects", {
    name: demoName,
    controller: { name: "Demo Shop AB", email: "privacy@demo-shop.example", address: "Storgatan 1, 111 22 Stockholm" },
    policies: { privacy: "https://demo-shop.example/privacy", terms: "https://demo-shop.example/terms" },
    jurisdiction: "SE",
    defaultLanguage: "en",
  });
  await admin("POST", `/projects/${project.projectId}/clients`, {
    name: "Demo website",
    type: "web",
    allowedOrigins: [base, base.replace("127.0.0.1", "localhost")],
  });
  return { projectId: project.projectId, created: true };
}
