/**
 * What a capture module needs besides its region, checked once. The script URL carries the secret setup
 * token, so no error here ever quotes it.
 */
import { MAX_UPLOAD_BYTES } from "../contract.ts";
import type { Locale } from "../i18n/locales.ts";

export interface ModuleOptions {
  /** The upload script's URL (http or https; secret: it holds the setup token). */
  scriptUrl: string;
  /** Add the rewrite that makes the game always send the full payload (isForceAllReloadOnlyMysekai=True). */
  forceFullPayload?: boolean;
  /** Bodies above this many bytes do not trigger the script. Default and ceiling: the upload limit (1 MiB). */
  maxBytes?: number;
  /** How long the app lets the script run, in seconds (1..300). */
  timeoutSeconds?: number;
  /** The language the module names and describes itself in (default English). */
  locale?: Locale;
}

export interface ResolvedModuleOptions {
  scriptUrl: string;
  forceFullPayload: boolean;
  maxBytes: number;
  timeoutSeconds: number;
  locale: Locale;
}

export const DEFAULT_SCRIPT_TIMEOUT_SECONDS = 30;
const MAX_SCRIPT_TIMEOUT_SECONDS = 300;

/** Commas, spaces and quotes separate fields in the apps' line formats; a URL with one would break the line. */
const LINE_SAFE_URL = /^https?:\/\/[^\s,"'\\]+$/;

export function resolveModuleOptions(options: ModuleOptions): ResolvedModuleOptions {
  if (!LINE_SAFE_URL.test(options.scriptUrl) || !URL.canParse(options.scriptUrl)) {
    throw new Error("scriptUrl must be an http(s) URL without spaces, commas, quotes or backslashes");
  }
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_UPLOAD_BYTES) {
    throw new Error(`maxBytes must be a whole number of bytes from 1 to ${MAX_UPLOAD_BYTES}`);
  }
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_SCRIPT_TIMEOUT_SECONDS;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > MAX_SCRIPT_TIMEOUT_SECONDS) {
    throw new Error(`timeoutSeconds must be a whole number from 1 to ${MAX_SCRIPT_TIMEOUT_SECONDS}`);
  }
  return { scriptUrl: options.scriptUrl, forceFullPayload: options.forceFullPayload ?? false, maxBytes, timeoutSeconds, locale: options.locale ?? "en" };
}
