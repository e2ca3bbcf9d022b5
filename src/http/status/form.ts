/** Small owner forms (urlencoded), read under a cap. */
import type { Context } from "hono";
import { readCapped } from "../../ingest/capped-body.ts";

export const MAX_FORM_BYTES = 4096;

/** The form's fields, or "too_large" past the cap (never mistaken for absent fields). */
export async function formFields(c: Context): Promise<URLSearchParams | "too_large"> {
  const body = await readCapped(c.req.raw.body, MAX_FORM_BYTES, "form");
  return body.ok ? new URLSearchParams(new TextDecoder().decode(body.bytes)) : "too_large";
}
