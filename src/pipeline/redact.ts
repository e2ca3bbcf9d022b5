import { redact } from "../notify/errors.ts";
import type { PipelineDeps } from "./stage.ts";

/** Error text as it may be logged and stored: secrets replaced, length capped. */
export function redactError(error: unknown, deps: Pick<PipelineDeps, "secrets">): string {
  const text = error instanceof Error ? error.message : String(error);
  return redact(text, deps.secrets).slice(0, 500);
}
