import { isConstraintError } from "../lib/db";
import { conflict } from "../lib/errors";
import { Problem } from "../lib/schemas";

/** What the configuration routes (data groups, purposes, the feed; mounted under the project's `/configurations`) share. */
export const tags = ["Configuration"];

export const unknownReferenceProblem = {
  422: {
    description: "The body names an id (identity, purpose, data group, party) that does not exist in this project.",
    content: { "application/problem+json": { schema: Problem } },
  },
} as const;

export const referenceTaken = (what: string) => (error: unknown): never => {
  if (isConstraintError(error, "UNIQUE")) throw conflict("reference_id_taken", `Another ${what} of this project has this referenceId.`);
  throw error;
};
