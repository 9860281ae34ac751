// The quickstart of docs/getting-started.md (steps 1 to 9), performed by a generic typed client: openapi-fetch over the types that
// openapi-typescript generated from /openapi.json (shared/api/openapi.d.ts), with the Worker's fetch handler as its
// fetch. If the document and the API disagree, this fails to compile or to run.
import { describe, expect, it } from "vitest";
import { adminToken, answered, worker } from "./helpers";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const form = (body: unknown) => new URLSearchParams(body as Record<string, string>).toString();
const now = () => new Date().toISOString();

describe("the getting-started quickstart through the generated client", () => {
  it("creates a project, client, token, identity, configuration, permission and objection, and reads the state", async () => {
    const admin = { headers: bearer(adminToken) };
    // 1. A project
    const project = answered(
      await worker.POST("/admin/v1/projects", {
        ...admin,
        body: { name: "My shop", controller: { name: "My Shop AB", email: "privacy@myshop.example" }, jurisdiction: "SE" },
      }),
      201,
    );
    const project_id = project.projectId;
    // 2. A backend client; its secret is shown once
    const backend = answered(
      await worker.POST("/admin/v1/projects/{project_id}/clients", { ...admin, params: { path: { project_id } }, body: { name: "Backend", type: "backend" } }),
      201,
    );
    // 3. An access token (client credentials, HTTP Basic)
    const issued = answered(
      await worker.POST("/oauth/token", {
        body: { grant_type: "client_credentials" },
        bodySerializer: form,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${btoa(`${backend.clientId}:${backend.clientSecret}`)}`,
        },
      }),
      200,
    );
    const auth = { headers: bearer(issued.access_token) };
    const path = { project_id };
    // 4. An identity with an alias
    const identity = answered(
      await worker.POST("/privacy/v2/projects/{project_id}/identities", {
        ...auth,
        params: { path },
        body: { referenceId: "customer-42", aliases: [{ type: "urn:svc:email", identifier: "anna@example.com" }] },
      }),
      201,
    );
    const identityId = identity.identityId;
    // 5. Found again by alias and by referenceId
    for (const alias of ["urn:svc:email:anna@example.com", "customer-42"]) {
      const found = answered(await worker.GET("/privacy/v2/projects/{project_id}/identities/aliases/{alias}", { ...auth, params: { path: { ...path, alias } } }), 200);
      expect(found.identityId).toBe(identityId);
    }
    // 6. A data group, a party (the controller) and a purpose resting on consent
    const dataGroup = answered(
      await worker.POST("/privacy/v2/projects/{project_id}/configurations/data-groups", {
        ...auth,
        params: { path },
        body: { referenceId: "email", name: "E-mail address", description: [{ language: "en", text: "Your e-mail address" }] },
      }),
      201,
    );
    const controller = answered(
      await worker.POST("/privacy/v2/projects/{project_id}/configurations/parties", {
        ...auth,
        params: { path },
        body: { referenceId: "my-shop", type: "company", details: { name: "My Shop AB", email: "privacy@myshop.example" } },
      }),
      201,
    );
    const purpose = answered(
      await worker.POST("/privacy/v2/projects/{project_id}/configurations/purposes", {
        ...auth,
        params: { path },
        body: {
          referenceId: "newsletter",
          name: "Newsletter",
          legalGround: "consent",
          description: [{ language: "en", text: "Offers by e-mail" }],
          dataGroups: [dataGroup.dataGroupId],
          controllers: [controller.partyId],
        },
      }),
      201,
    );
    // 7. The subject agrees, and the permission state shows it
    answered(
      await worker.POST("/privacy/v2/projects/{project_id}/permissions", {
        ...auth,
        params: { path },
        body: {
          identityId,
          requested: now(),
          meta: { context: { collectionMethod: "web-dialog", application: "shop-web", language: "en" } },
          request: {
            purposes: [{ purposeId: purpose.purposeId, version: "1", status: "approved", dataGroups: [{ dataGroupId: dataGroup.dataGroupId, status: "approved" }] }],
          },
        },
      }),
      201,
    );
    const state = () =>
      worker.GET("/privacy/v2/projects/{project_id}/identities/{identityId}/permission-state", { ...auth, params: { path: { ...path, identityId } } });
    expect(answered(await state(), 200).purposes).toMatchObject([{ purposeId: purpose.purposeId, status: "approved" }]);
    // 8. The subject objects; once the objection is completed the purpose shows as denied
    const objection = answered(
      await worker.POST("/privacy/v2/projects/{project_id}/objections", {
        ...auth,
        params: { path },
        body: { identityId, requested: now(), request: { purposes: [{ purposeId: purpose.purposeId }] } },
      }),
      201,
    );
    answered(
      await worker.PUT("/privacy/v2/projects/{project_id}/objections/{request_id}", {
        ...auth,
        params: { path: { ...path, request_id: objection.requestId } },
        body: { status: "completed" },
      }),
      200,
    );
    expect(answered(await state(), 200).purposes).toMatchObject([{ purposeId: purpose.purposeId, status: "denied", requestType: "objection" }]);
    // 9. Polling: completed objections of this subject
    const page = answered(
      await worker.GET("/privacy/v2/projects/{project_id}/objections", {
        ...auth,
        params: { path, query: { status: "completed", identityId, limit: 50 } },
      }),
      200,
    );
    expect(page.items.map((item) => item.requestId)).toEqual([objection.requestId]);
  });
});
