// Findings: faults that reached 500 (an empty body without content type on POST/PUT; a purpose naming 100
// controllers: D1's limit of bound variables), a 4 MB answer to a 1 MB body of unknown keys, and `javascript:` /
// `data:` URLs accepted as policy links.
import { describe, expect, it } from "vitest";
import { admin, adminToken, call, expectProblem, newTenant, problemOf } from "../api/helpers";

describe("faults that were 500s", () => {
  it("answers an empty body without content type on POST and PUT with a 400, not 500", async () => {
    const { projectId, token } = await newTenant();
    for (const [method, path] of [
      ["POST", `/privacy/v2/projects/${projectId}/permissions`],
      ["PUT", `/privacy/v2/projects/${projectId}`],
      ["POST", "/admin/v1/projects"],
    ]) {
      // An empty byte body: no content type at all (an empty string would be sent as text/plain).
      const reply = await call(method, path, { token: path.startsWith("/admin") ? adminToken : token, rawBody: new Uint8Array(0) });
      expectProblem(reply, 400, "validation_failed");
    }
    // A body whose fields are all optional: the empty body is the empty object.
    const identity = await call("POST", `/privacy/v2/projects/${projectId}/identities`, { token, rawBody: new Uint8Array(0) });
    expect(identity.status).toBe(201);
  });

  it("checks a purpose naming 100 and 200 controllers without SQL variable overflow", async () => {
    const { api } = await newTenant();
    const parties: string[] = [];
    for (let i = 0; i < 200; i++) parties.push(`pty_${String(i).padStart(26, "0")}`);
    for (const count of [100, 200]) {
      const reply = await api("POST", "/configurations/purposes", {
        referenceId: `many-${count}`,
        name: "Many",
        legalGround: "consent",
        controllers: parties.slice(0, count),
      });
      // None of those parties exists: every one is reported, none is a server error.
      expectProblem(reply, 422, "unknown_reference");
      expect(problemOf(reply).errors).toHaveLength(count);
    }
  });

  it("caps the error listing of a 1 MB body of unknown fields", async () => {
    const { api } = await newTenant();
    const body: Record<string, number> = { name: 1 };
    for (let i = 0; i < 44_000; i++) body[`unknown_field_${i}`] = 1;
    const text = JSON.stringify(body);
    expect(text.length).toBeGreaterThan(900_000);
    expect(text.length).toBeLessThan(1_048_576);
    const reply = await api("POST", "/identities", body);
    expectProblem(reply, 400, "validation_failed");
    expect(JSON.stringify(reply.body).length).toBeLessThan(20_000);
    expect(problemOf(reply).errors).toHaveLength(50);
    expect(problemOf(reply).errorsOmitted).toBeGreaterThan(43_000);
  });
});

describe("URL fields", () => {
  const links = {
    "javascript:alert(document.cookie)": 400,
    "data:text/html,<script>alert(1)</script>": 400,
    "http://example.com/privacy": 400,
    "ftp://example.com/privacy": 400,
    "https://example.com/privacy": 200,
    "http://localhost:3000/privacy": 200,
  };
  it.each(Object.entries(links))("takes %s as a policy link: %i", async (link, status) => {
    const { projectId, api } = await newTenant();
    const viaPrivacy = await api("PUT", "", { name: "Shop", policies: { privacy: link } });
    const viaAdmin = await admin("PUT", `/projects/${projectId}`, { name: "Shop", policies: { terms: link } });
    for (const reply of [viaPrivacy, viaAdmin]) {
      if (status === 400) expectProblem(reply, 400, "validation_failed");
      else expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
  });

  it("takes only https origins (http for localhost and *.localhost, loopback by RFC 6761) as a client's allowed origins", async () => {
    const { projectId } = await newTenant();
    // Failed before: http://fernhill.localhost:8833 was refused (http only for localhost itself).
    const origins = [
      ["http://shop.example", 400], ["javascript:alert(1)", 400], ["https://shop.example", 201], ["http://localhost:3000", 201],
      ["http://fernhill.localhost:8833", 201], ["http://blog.fernhill.localhost", 201], ["http://localhost.example.com", 400], ["http://shoplocalhost:80", 400],
      ["http://fernhill.localhost/", 400],
    ] as const;
    for (const [allowed, status] of origins) {
      const reply = await admin("POST", `/projects/${projectId}/clients`, { name: "web", type: "web", allowedOrigins: [allowed] });
      expect(reply.status, allowed).toBe(status);
    }
    // Links too: a policy on such a local site (one tenant for both, within the token endpoint's limit).
    for (const [link, status] of [["http://fernhill.localhost:8833/privacy", 200], ["http://localhost.example.com/privacy", 400]] as const) {
      expect((await admin("PUT", `/projects/${projectId}`, { name: "Shop", policies: { privacy: link } })).status, link).toBe(status);
    }
  });
});
