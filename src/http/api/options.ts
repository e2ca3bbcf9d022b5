/** The data API's options over a store's reads and rate windows (the service wires them, src/service.ts). */
import type { Config } from "../../config/index.ts";
import type { DataReads } from "../../store/ports/data-api.ts";
import type { RateWindows } from "../../store/ports/rate-windows.ts";
import type { ApiOptions } from "./routes.ts";
import { SaveJsonSource } from "./save-json.ts";

export function dataApi(reads: DataReads, rateWindows: RateWindows, config: Pick<Config, "api" | "keys" | "trustProxy">): ApiOptions {
  return {
    reads,
    saveJson: new SaveJsonSource(reads, config.keys),
    perMinute: config.api.perMinute,
    rateWindows,
    trustProxy: config.trustProxy,
  };
}
