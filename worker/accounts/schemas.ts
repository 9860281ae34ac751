import { z } from "@hono/zod-openapi";
import { Timestamp } from "../lib/schemas";
import { credentialKinds } from "./table";
import { roles } from "../auth/roles";

export const Role = z.enum(roles).openapi("Role", { description: "docs/security.md#roles: what each role may do." });

export const Email = z.string().min(3).max(254).email();

const ProjectRole = z.strictObject({ projectId: z.string().min(1).max(100), role: Role }).openapi("ProjectRole");

export const ProjectRoles = z.array(ProjectRole).max(200).openapi({ description: "Roles in single projects, replacing the organization role there." });

export const Member = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: Role,
    projectRoles: z.array(ProjectRole),
    created: Timestamp,
    status: z.enum(["invited", "active"]).openapi({ description: "`invited` until the member first signs in through their invitation." }),
    invitationExpires: Timestamp.nullable().openapi({ description: "While invited: when the newest invitation expires (then invite again)." }),
  })
  .openapi("Member");

export const Invitation = z
  .strictObject({ email: Email, name: z.string().min(1).max(200).optional(), role: Role, projectRoles: ProjectRoles.optional() })
  .openapi("Invitation");

export const MemberUpdate = z.strictObject({ role: Role, projectRoles: ProjectRoles.optional() }).openapi("MemberUpdate");

export const MemberParams = z.object({ memberId: z.string().min(1).max(100) });

export const SessionParams = z.object({ sessionId: z.string().min(1).max(100) });

export const SessionInfo = z
  .object({
    id: z.string().openapi({ description: "The SHA-256 of the session's cookie value (the value itself is never stored)." }),
    credential: z.enum(credentialKinds),
    address: z.string().nullable(),
    created: Timestamp,
    expires: Timestamp,
    current: z.boolean(),
  })
  .openapi("PortalSessionInfo");

export const Bootstrap = z
  .strictObject({ email: Email, name: z.string().min(1).max(200).optional() })
  .openapi("Bootstrap", { description: "The first owner's address (or, later, an owner's, to mail them a new link)." });

export const BootstrapResult = z
  .object({ organizationId: z.string(), memberId: z.string(), signInUrl: z.string(), created: z.boolean() })
  .openapi("BootstrapResult");

export const AuditEntry = z
  .object({
    seq: z.number().int(),
    entryHash: z.string(),
    previous: z.string().nullable(),
    organizationId: z.string(),
    memberId: z.string().nullable().openapi({ description: "Null: the admin token (break-glass)." }),
    role: Role,
    credential: z.enum(credentialKinds),
    operationId: z.string(),
    method: z.string(),
    object: z.string(),
    projectId: z.string().nullable(),
    status: z.number().int(),
    address: z.string(),
    before: z.unknown().optional().openapi({ description: "A configuration change: what the object's own read route answered the caller just before it (absent where there is none, such as a creation); a route that holds a secret says what it was itself, without the secret (single sign-on)." }),
    after: z.unknown().optional().openapi({ description: "A configuration change: what the request set." }),
    at: Timestamp,
  })
  .openapi("AuditEntry");

export const AuditQuery = z.object({
  member: z.string().max(100).optional(),
  object: z.string().max(500).optional().openapi({ description: "A path prefix: `/admin/v1/projects/prj_…` is everything about that project." }),
  from: z.string().datetime().optional(),
  to: z.string().datetime().optional(),
  before: z.coerce.number().int().positive().optional().openapi({ description: "Entries before this `seq` (the next page)." }),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  format: z.enum(["json", "jsonl", "csv"]).default("json").openapi({ description: "`jsonl` and `csv` are downloads of the same entries." }),
});

export const NewOrganization = z.strictObject({ name: z.string().min(1).max(200), ownerEmail: Email }).openapi("NewOrganization");

export const OrganizationResult = z.object({ organizationId: z.string(), ownerId: z.string() }).openapi("OrganizationResult");
