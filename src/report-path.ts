/** REPORT_PATH as logs may show it: a non-default path can be the owner's secret (the capture tool's only protection). */
import { DEFAULT_REPORT_PATH } from "./contract.ts";
import { sha256Hex } from "./sha256.ts";

/** The first segment (only when more follow) and the first 8 hex of the path's sha256, e.g. `/capture/…#1a2b3c4d`. */
export function reportPathForLog(path: string): string {
  if (path === DEFAULT_REPORT_PATH) return path;
  const segments = path.split("/").filter((segment) => segment !== "");
  const prefix = segments.length > 1 ? `/${segments[0]}` : "";
  const hash = sha256Hex(path).slice(0, 8);
  return `${prefix}/…#${hash}`;
}
