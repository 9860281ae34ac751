import { describe, expect, it } from "vitest";
import { expectProblem, newTenant } from "./helpers";

const mailer = {
  referenceId: "mailer",
  type: "company",
  details: {
    name: "Mailer Inc",
    description: [
      { language: "en", text: "Sends our newsletters." },
      { language: "sv-SE", text: "Skickar våra nyhetsbrev." },
    ],
    address: "1 Main St",
    email: "privacy@mailer.example",
    nationalId: "556000-0000",
    phone: "+46 8 123 456",
    policies: { privacy: "https://mailer.example/privacy", terms: "https://mailer.example/terms" },
    jurisdiction: "SE",
  },
};

describe("parties", () => {
  it("creates, lists, reads, replaces and deletes a party", async () => {
    const { api, projectId } = await newTenant();
    const created = await api("POST", "/configurations/parties", mailer);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ projectId, ...mailer });
    expect(created.body.partyId).toMatch(/^pty_/);
    const { partyId } = created.body;

    expect((await api("GET", "/configurations/parties")).body.items).toEqual([created.body]);
    expect((await api("GET", `/parties/${partyId}`)).body).toEqual(created.body);

    const replaced = await api("PUT", `/parties/${partyId}`, { ...mailer, type: "individual", details: { name: "Anna Svensson" } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ type: "individual", details: { name: "Anna Svensson" } });
    expect(replaced.body.details).not.toHaveProperty("email");

    expect((await api("DELETE", `/parties/${partyId}`)).status).toBe(204);
    expectProblem(await api("GET", `/parties/${partyId}`), 404, "not_found");
  });

  it("accepts the spec's sample shapes: policies as a one-object array and the juridiction spelling", async () => {
    const { api } = await newTenant();
    const reply = await api("POST", "/configurations/parties", {
      referenceId: "legacy",
      type: "company",
      details: { name: "Legacy AB", policies: [{ privacy: "https://legacy.example/p" }], juridiction: "NO" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.details).toEqual({ name: "Legacy AB", policies: { privacy: "https://legacy.example/p" }, jurisdiction: "NO" });
  });

  it("validates type, translations, policy URLs and referenceId, and keeps referenceIds unique", async () => {
    const { api } = await newTenant();
    const bad = [
      { ...mailer, type: "robot" },
      { ...mailer, details: { ...mailer.details, description: [{ language: "english!", text: "x" }] } },
      { ...mailer, details: { ...mailer.details, policies: { privacy: "not a url" } } },
      { ...mailer, details: { ...mailer.details, email: "nope" } },
      { ...mailer, referenceId: "has space" },
      { ...mailer, details: { description: [] } },
    ];
    for (const body of bad) expectProblem(await api("POST", "/configurations/parties", body), 400, "validation_failed");
    expect((await api("POST", "/configurations/parties", mailer)).status).toBe(201);
    expectProblem(await api("POST", "/configurations/parties", mailer), 409, "reference_id_taken");
    expect((await api("GET", "/configurations/parties")).body.items).toHaveLength(1);
  });

  it("keeps parties inside their project", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const { body: party } = await theirs.api("POST", "/configurations/parties", mailer);
    expectProblem(await mine.api("GET", `/parties/${party.partyId}`), 404, "not_found");
    expectProblem(await mine.api("PUT", `/parties/${party.partyId}`, mailer), 404, "not_found");
    expectProblem(await mine.api("DELETE", `/parties/${party.partyId}`), 404, "not_found");
    expect((await mine.api("GET", "/configurations/parties")).body.items).toEqual([]);
    expect((await theirs.api("GET", `/parties/${party.partyId}`)).body.details.name).toBe("Mailer Inc");
  });
});
