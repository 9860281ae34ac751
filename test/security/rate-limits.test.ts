// Finding: one address minted 5,000 visitor identities in 44 s, and nothing limited the token endpoint, the portal
// sign-in or guesses of the admin token. Here every limit is 10 per minute (vitest.config.ts, security project),
// counted by the real Rate Limiting binding as Miniflare emulates it.
import { describe, expect, it } from "vitest";
import { adminToken, call, expectProblem, inOneWindow, newClient, newProject, origin, tokenFor, type Reply } from "../api/helpers";
import { freshIp } from "./callers";
import { owner } from "../api/accounts-helpers";

const limit = 10;

function expectLimited(reply: Reply, policy: string) {
  expectProblem(reply, 429, "rate_limited");
  expect(reply.headers.get("retry-after")).toBe("60");
  expect(reply.headers.get("ratelimit-policy")).toBe(`"${policy}";q=${limit};w=60`);
  expect(reply.headers.get("ratelimit")).toBe(`"${policy}";r=0;t=60`);
}

async function webProject() {
  const { projectId } = await newProject();
  await newClient(projectId, "web", ["https://shop.example"]);
  return projectId;
}

/** A scan pass of the project, as its backend gets one. */
async function scanPassOf(projectId: string) {
  const { clientId, clientSecret } = await newClient(projectId);
  const token = await tokenFor(clientId, clientSecret);
  return (await call("POST", `/privacy/v2/projects/${projectId}/scan-passes`, { token })).body as { header: string; pass: string };
}

const mint = (projectId: string, ip: string) =>
  call("POST", `/browser/v1/projects/${projectId}/visitor-tokens`, { body: {}, headers: { origin: "https://shop.example", "cf-connecting-ip": ip } });

describe("abuse limits", () => {
  it("limits visitor-token minting per client address", inOneWindow(async () => {
    const projectId = await webProject();
    const ip = freshIp();
    for (let i = 0; i < limit; i++) expect((await mint(projectId, ip)).status).toBe(201);
    expectLimited(await mint(projectId, ip), "visitor-tokens-ip");
    // Another address may still mint, on a project that has not reached its own limit.
    expect((await mint(await webProject(), freshIp())).status).toBe(201);
  }));

  it("spares the project's own scanner the address limit with a scan pass, not the project's limit; a forged pass spares nothing", inOneWindow(async () => {
    const projectId = await webProject();
    const issued = await scanPassOf(projectId);
    const scanner = freshIp();
    const visit = (project: string, pass?: string) =>
      call("POST", `/browser/v1/projects/${project}/visitor-tokens`, {
        body: {},
        headers: { origin: "https://shop.example", "cf-connecting-ip": scanner, ...(pass ? { [issued.header]: pass } : {}) },
      });
    // The scanner's address has used up its limit elsewhere.
    const elsewhere = await webProject();
    for (let i = 0; i < limit; i++) expect((await visit(elsewhere)).status).toBe(201);
    expectLimited(await visit(projectId), "visitor-tokens-ip");
    const forged = issued.pass.slice(0, -4) + (issued.pass.endsWith("AAAA") ? "BBBB" : "AAAA");
    expectLimited(await visit(projectId, forged), "visitor-tokens-ip");
    expectLimited(await visit(elsewhere, issued.pass), "visitor-tokens-ip");
    // Half the project's limit is used by other visitors: the pass's visitors take the rest, then the project's limit bites.
    for (let i = 0; i < limit / 2; i++) expect((await mint(projectId, freshIp())).status).toBe(201);
    for (let i = 0; i < limit / 2; i++) expect((await visit(projectId, issued.pass)).status).toBe(201);
    expectLimited(await visit(projectId, issued.pass), "visitor-tokens-project");
  }));

  it("bounds the visitors one scan pass may make (SCAN_PASS_VISITORS, here the limit): past it, the address limit applies again", inOneWindow(async () => {
    const projectId = await webProject();
    const issued = await scanPassOf(projectId);
    const scanner = freshIp();
    const elsewhere = await webProject();
    for (let i = 0; i < limit; i++) expect((await mint(elsewhere, scanner)).status).toBe(201);
    // The scanned page itself could mint through the pass while the scan runs: the pass spares the address limit only
    // for as many visitors as one scan makes.
    const visit = () =>
      call("POST", `/browser/v1/projects/${projectId}/visitor-tokens`, {
        body: {},
        headers: { origin: "https://shop.example", "cf-connecting-ip": scanner, [issued.header]: issued.pass },
      });
    for (let i = 0; i < limit; i++) expect((await visit()).status).toBe(201);
    expectLimited(await visit(), "visitor-tokens-ip");
  }));

  it("limits visitor-token minting per project, whatever the addresses", inOneWindow(async () => {
    const projectId = await webProject();
    for (let i = 0; i < limit; i++) expect((await mint(projectId, freshIp())).status).toBe(201);
    expectLimited(await mint(projectId, freshIp()), "visitor-tokens-project");
    expect((await mint(await webProject(), freshIp())).status).toBe(201);
  }));

  it("limits the token endpoint per client address", inOneWindow(async () => {
    const { projectId } = await newProject();
    const client = await newClient(projectId);
    const ip = freshIp();
    const ask = () =>
      call("POST", "/oauth/token", {
        headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip },
        rawBody: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: "wrong" }).toString(),
      });
    for (let i = 0; i < limit; i++) expect((await ask()).status).toBe(401);
    expectLimited(await ask(), "token-endpoint");
  }));

  it("limits portal sign-in per client address", inOneWindow(async () => {
    const ip = freshIp();
    const signIn = (token: string) =>
      call("POST", "/portal/api/session", { body: { adminToken: token }, headers: { origin, "cf-connecting-ip": ip } });
    for (let i = 0; i < limit; i++) expect((await signIn("guess")).status).toBe(401);
    expectLimited(await signIn(adminToken), "portal-sign-in");
  }));

  it("limits invitations per inviting member, whatever their addresses", async () => {
    // One owner for every run: their invitations count per minute, so a run in a new window starts from none.
    const boss = await owner("limits-owner@example.com");
    let run = 0;
    await inOneWindow(async () => {
      run++;
      const invite = (i: number) =>
        call("POST", "/admin/v1/members", {
          body: { email: `invitee-${run}-${i}@example.com`, role: "viewer" },
          headers: { cookie: boss.cookie, origin, "x-csrf-token": boss.csrfToken, "cf-connecting-ip": freshIp() },
        });
      for (let i = 0; i < limit; i++) expect((await invite(i)).status).toBe(202);
      expectLimited(await invite(limit), "portal-sign-in");
    })();
  });

  it("blocks an address that keeps failing the admin token, even once it guesses right", inOneWindow(async () => {
    const ip = freshIp();
    const list = (token: string, from = ip) => call("GET", "/admin/v1/projects", { token, headers: { "cf-connecting-ip": from } });
    for (let i = 0; i < limit; i++) expectProblem(await list(`guess-${i}`), 401, "unauthorized");
    expectLimited(await list("guess-again"), "admin-token-failures");
    expectLimited(await list(adminToken), "admin-token-failures");
    expect((await list(adminToken, freshIp())).status).toBe(200);
  }));
});
