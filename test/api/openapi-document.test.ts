// The OpenAPI document as generated clients and linters read it: every operation named and grouped.
import { describe, expect, it } from "vitest";
import { call, origin } from "./helpers";

const doc = (await call("GET", "/openapi.json")).body;
const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => methods.includes(method))
    .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

describe("the OpenAPI document", () => {
  it("names every operation with an operationId, and no two alike", () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter(({ operation }) => !/^[a-z][A-Za-z0-9]+$/.test(operation.operationId ?? "")).map(({ name }) => name)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("tags every operation with a capability the document describes", () => {
    const described = new Map((doc.tags ?? []).map((tag: { name: string; description?: string }) => [tag.name, tag.description]));
    expect(operations.filter(({ operation }) => !(operation.tags?.length > 0)).map(({ name }) => name)).toEqual([]);
    const used = new Set(operations.flatMap(({ operation }) => operation.tags as string[]));
    expect([...used].filter((tag) => !described.get(tag))).toEqual([]);
    expect([...described.keys()].filter((tag) => !used.has(tag as string))).toEqual([]);
  });

  it("names the deployment it is served from as its server, and a license", () => {
    expect(doc.servers).toEqual([{ url: origin, description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: "Apache-2.0", identifier: "Apache-2.0" });
  });

  it("declares only security schemes that operations use", () => {
    const used = new Set(operations.flatMap(({ operation }) => (operation.security ?? []).flatMap(Object.keys)));
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([...used].sort());
  });

  it("lets a nullable reference be null (no `allOf` that null cannot satisfy)", () => {
    const impossible: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return;
      const parts = (node as { allOf?: { type?: unknown }[] }).allOf ?? [];
      if (parts.some((part) => Array.isArray(part.type) && part.type.includes("null"))) impossible.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(doc, "#");
    expect(impossible).toEqual([]);
  });
});
