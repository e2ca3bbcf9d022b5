/** Start-up wiring of the notify module: routing files from CONFIG_DIR and channel options from the config. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifyConfig } from "../config.ts";
import { configuredChannels, type NotifyOptions } from "./channels.ts";
import { parseRoutingFiles, validateRouting, type Routing } from "./routing.ts";

export interface NotifySetup {
  routing: Routing;
  options: NotifyOptions;
  warnings: string[];
}

function readOptional(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** Throws an Error naming the file when a routing file is not valid. */
export function loadNotifySetup(config: NotifyConfig, configDir: string): NotifySetup {
  const pushMap = join(configDir, "push_map.json");
  const barkMap = join(configDir, "bark_map.json");
  const routing = parseRoutingFiles(readOptional(pushMap), readOptional(barkMap), { pushMap, barkMap });
  const options: NotifyOptions = {
    barkKeys: routing.barkKeys,
    timeoutMs: config.timeoutMs,
    ...(config.telegram && { telegram: config.telegram }),
    bark: {
      server: config.bark.server,
      ...(config.bark.icon && { icon: config.bark.icon }),
      ...(config.bark.group && { group: config.bark.group }),
      ...(config.bark.imageBase && { imageBase: config.bark.imageBase }),
    },
    ...(config.discord && { discord: config.discord }),
    ...(config.onebot && { onebot: { url: config.onebot.url, target: config.onebot.target, ...(config.onebot.token && { token: config.onebot.token }) } }),
    ...(config.webhook && { webhook: { url: config.webhook.url, ...(config.webhook.secret && { secret: config.webhook.secret }) } }),
  };
  const warnings = validateRouting(routing, configuredChannels(options), config.defaultRoute);
  return { routing, options, warnings };
}
