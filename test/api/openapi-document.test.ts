// The OpenAPI document as generated clients and linters read it: every operation named and grouped.
import { describe, expect, it } from "vitest";
import { requestExamples } from "../../worker/lib/request-examples";
import { openApiDocument, origin } from "./helpers";

const doc = (await openApiDocument()).body;
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

  it("names the project in every path `project_id`, the admin API's included", () => {
    const names = new Set(Object.keys(doc.paths).flatMap((path) => [.../\/projects\/\{(\w+)\}/.exec(path)?.slice(1) ?? []]));
    expect([...names]).toEqual(["project_id"]);
  });

  it("declares only security schemes that operations use", () => {
    const used = new Set(operations.flatMap(({ operation }) => (operation.security ?? []).flatMap(Object.keys)));
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([...used].sort());
  });

  it("publishes no `allOf` that valid data cannot satisfy (a nullable part, or a closed part missing the others' fields)", () => {
    type Schema = { $ref?: string; type?: unknown; properties?: object; additionalProperties?: unknown; allOf?: Schema[] };
    const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()!]) : schema);
    const impossible: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return;
      const parts = ((node as Schema).allOf ?? []).map(resolve);
      const fields = new Set(parts.flatMap((part) => Object.keys(part.properties ?? {})));
      const closedShort = (part: Schema) => part.additionalProperties === false && [...fields].some((field) => !(field in (part.properties ?? {})));
      if (parts.some((part) => (Array.isArray(part.type) && part.type.includes("null")) || closedShort(part))) impossible.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(doc, "#");
    expect(impossible).toEqual([]);
  });

  it("shows an example of every request body (worker/lib/request-examples.ts)", () => {
    const without = operations.flatMap(({ name, operation }) =>
      Object.entries(operation.requestBody?.content ?? {})
        .filter(([, media]) => (media as { example?: unknown }).example === undefined)
        .map(([type]) => `${name} ${type}`),
    );
    expect(without).toEqual([]);
    const bodies = new Set(
      operations.flatMap(({ operation }) =>
        Object.keys(operation.requestBody?.content ?? {}).flatMap((type) => [operation.operationId, `${operation.operationId} ${type}`]),
      ),
    );
    expect(Object.keys(requestExamples).filter((key) => !bodies.has(key))).toEqual([]);
  });
});
