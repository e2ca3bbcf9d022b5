import { DrizzleQueryError } from "drizzle-orm/errors";
import { redact } from "../notify/errors.ts";
import type { PipelineDeps } from "./stage.ts";

/**
 * Error text as it may be logged and stored: secrets replaced, length capped. A failed query says what the
 * database answered, never the statement or its parameters (which may hold a token's hash or a player's data).
 */
export function redactError(error: unknown, deps: Pick<PipelineDeps, "secrets">): string {
  const cause = error instanceof DrizzleQueryError && error.cause !== undefined ? error.cause : error;
  const text = cause instanceof Error ? `${error instanceof DrizzleQueryError ? "database: " : ""}${cause.message}` : String(cause);
  return redact(text, deps.secrets).slice(0, 500);
}
