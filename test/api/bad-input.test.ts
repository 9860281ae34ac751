import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, adminToken, call, expectProblem, newTenant, openApiDocument, problemOf } from "./helpers";

describe("bad input gets a clear 4xx problem and stores nothing", () => {
  const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM identities").first<{ n: number }>())!.n;

  it("malformed JSON, non-object bodies, wrong types, unknown fields", async () => {
    const { projectId, token } = await newTenant();
    const path = `/privacy/v2/projects/${projectId}/identities`;
    const before = await count();
    const send = (rawBody: string, contentType = "application/json") =>
      call("POST", path, { token, rawBody, headers: { "content-type": contentType } });

    expectProblem(await send("{"), 400, "malformed_json");
    expectProblem(await send(""), 400, "malformed_json");
    expectProblem(await send("[]"), 400, "validation_failed");
    expectProblem(await send("null"), 400, "validation_failed");
    expectProblem(await send('"text"'), 400, "validation_failed");
    const wrongType = await send('{"referenceId": 5}');
    expectProblem(wrongType, 400, "validation_failed");
    expect(problemOf(wrongType).errors).toEqual([expect.objectContaining({ path: "referenceId", code: "invalid_type" })]);
    const unknown = await send('{"referenceId": "a", "surprise": true}');
    expectProblem(unknown, 400, "validation_failed");
    expect(problemOf(unknown).errors).toEqual([{ path: "surprise", message: "Unknown field.", code: "unknown_field" }]);
    const nested = await send('{"aliases": [{"type": "urn:svc:x", "identifier": "1", "extra": 1}]}');
    expect(problemOf(nested).errors).toEqual([expect.objectContaining({ path: "aliases.0.extra", code: "unknown_field" })]);
    expectProblem(await send("referenceId=a", "application/x-www-form-urlencoded"), 415, "unsupported_media_type");
    expectProblem(await send('{"referenceId":"a"}', "text/plain"), 415, "unsupported_media_type");
    expect(await count()).toBe(before);
  });

  it("a missing field is named in the API's words, not the validator's", async () => {
    const { projectId, token } = await newTenant();
    const purpose = { referenceId: "news", name: "News", legalGround: "consent", description: [{ language: "en", text: "News" }] };
    const reply = await call("POST", `/privacy/v2/projects/${projectId}/configurations/purposes`, { token, body: purpose });
    expectProblem(reply, 400, "validation_failed");
    expect(problemOf(reply).errors).toEqual([{ path: "controllers", message: "Required.", code: "required" }]);
  });

  it("bodies over 1 MB are 413, declared or streamed", async () => {
    const { projectId, token } = await newTenant();
    const path = `/privacy/v2/projects/${projectId}/identities`;
    const big = JSON.stringify({ referenceId: "a", pad: "x".repeat(1_100_000) });
    expectProblem(await call("POST", path, { token, rawBody: big, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    const chunks = new TextEncoder().encode(big);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < chunks.length; i += 65536) controller.enqueue(chunks.slice(i, i + 65536));
        controller.close();
      },
    });
    expectProblem(await call("POST", path, { token, rawBody: stream, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    expectProblem(
      await call("POST", "/admin/v1/projects", { token: adminToken, rawBody: big, headers: { "content-type": "application/json" } }),
      413,
      "payload_too_large",
    );
    expectProblem(
      await call("POST", "/oauth/token", { rawBody: `grant_type=client_credentials&x=${"y".repeat(1_100_000)}`, headers: { "content-type": "application/x-www-form-urlencoded" } }),
      413,
      "payload_too_large",
    );
  });

  it("one body limit for every route: streamed bodies are counted, small ones still read, and no body before authentication", async () => {
    const { projectId, token } = await newTenant();
    const path = `/privacy/v2/projects/${projectId}/identities`;
    const streamed = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      return new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 65536) controller.enqueue(bytes.slice(i, i + 65536));
          controller.close();
        },
      });
    };
    const created = await call("POST", path, { token, rawBody: streamed(JSON.stringify({ referenceId: "streamed" })), headers: { "content-type": "application/json" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ referenceId: "streamed" });
    const form = `grant_type=client_credentials&x=${"y".repeat(1_100_000)}`;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    expectProblem(await call("POST", "/oauth/token", { rawBody: streamed(form), headers }), 413, "payload_too_large");
    const big = JSON.stringify({ referenceId: "a", pad: "x".repeat(1_100_000) });
    expectProblem(await call("POST", path, { rawBody: big, headers: { "content-type": "application/json" } }), 401, "unauthorized");
    expectProblem(await call("POST", path, { rawBody: streamed(big), headers: { "content-type": "application/json" } }), 401, "unauthorized");
  });

  it("unknown routes are 404 problems; path params are validated", async () => {
    expectProblem(await call("GET", "/nope"), 404, "not_found");
    expectProblem(await admin("GET", "/projects/prj_missing"), 404, "not_found");
  });

  it("answers with personal data are not stored by caches; the configuration feed keeps its own policy", async () => {
    const { api, token } = await newTenant();
    const created = await api("POST", "/identities", { referenceId: "cache-me-not" });
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect((await api("GET", `/identities/${created.body.identityId}`)).headers.get("cache-control")).toBe("no-store");
    expect((await admin("GET", "/projects")).headers.get("cache-control")).toBe("no-store");
    expect((await call("GET", "/privacy/v1/configurations", { token })).headers.get("cache-control")).toBe("private, no-cache");
  });

  it("a known path with a method it does not take is 405 with Allow", async () => {
    const { api } = await newTenant();
    const patch = await api("PATCH", "/identities/x", {});
    expectProblem(patch, 405, "method_not_allowed");
    expect(patch.headers.get("allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "HEAD", "PUT"]);
    const token = await call("GET", "/oauth/token");
    expectProblem(token, 405, "method_not_allowed");
    expect(token.headers.get("allow")).toBe("POST");
    expect((await call("DELETE", "/.well-known/jwks.json")).headers.get("allow")).toBe("GET, HEAD");
    const head = await call("HEAD", "/.well-known/jwks.json");
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it("the OpenAPI document and reference page are served", async () => {
    const doc = await openApiDocument();
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(["/oauth/token", "/privacy/v2/projects/{project_id}/identities", "/privacy/v2/projects/{project_id}/identities/aliases/{alias}"]),
    );
    expect(doc.body.components.securitySchemes).toHaveProperty("oauth2");
    const page = await call("GET", "/docs");
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.body).toContain("/privacy/v2/projects/{project_id}/identities");
  });
});
