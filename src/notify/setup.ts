/** Start-up wiring of the notify module: the routing files from CONFIG_DIR and the warnings they deserve. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifyConfig } from "../config/index.ts";
import { configuredChannels } from "./channels.ts";
import { parseRoutingFiles, validateRouting, type Routing } from "./routing.ts";

export interface NotifySetup {
  routing: Routing;
  warnings: string[];
  /** No channel is configured: nothing is pushed (said once at start, not warned per route). */
  pushesOff: boolean;
}

function readOptional(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** Throws an Error naming the file when a routing file is not valid. */
export function loadNotifySetup(config: NotifyConfig, configDir: string): NotifySetup {
  const pushMap = join(configDir, "push_map.json");
  const barkMap = join(configDir, "bark_map.json");
  const routing = parseRoutingFiles(readOptional(pushMap), readOptional(barkMap), { pushMap, barkMap });
  const configured = configuredChannels(config, routing.barkKeys);
  return { routing, warnings: validateRouting(routing, configured, config.defaultRoute), pushesOff: configured.size === 0 };
}
