/** Dispatch of one routed target to its channel, with every channel's configuration in one place. */
import { sendBark } from "./bark.ts";
import { sendDiscord } from "./discord.ts";
import { DeliveryError, redact } from "./errors.ts";
import type { PartProgress, PushMessage } from "./message.ts";
import { sendOneBot } from "./onebot.ts";
import type { Channel, ChannelTarget } from "./routing.ts";
import { sendTelegram } from "./telegram.ts";
import { sendWebhook } from "./webhook.ts";

export { DeliveryError, redact };

export interface NotifyOptions {
  telegram?: { apiBase?: string; botToken: string; chatId: string };
  /** Shared Bark settings; device keys come from `barkKeys`. Absent = public server, no icon. */
  bark?: { server?: string; icon?: string; group?: string; imageBase?: string };
  /** Bark alias → device key (bark_map.json). */
  barkKeys: Record<string, string>;
  discord?: { webhookUrl: string };
  onebot?: { url: string; token?: string; target: string };
  webhook?: { url: string; secret?: string };
  timeoutMs: number;
}

/** The channels that can deliver with these options (bark: when at least one device key is known). */
export function configuredChannels(options: NotifyOptions): Set<Channel> {
  const channels = new Set<Channel>();
  if (options.telegram) channels.add("telegram");
  if (Object.keys(options.barkKeys).length > 0) channels.add("bark");
  if (options.discord) channels.add("discord");
  if (options.onebot) channels.add("onebot");
  if (options.webhook) channels.add("webhook");
  return channels;
}

function notConfigured(channel: string): DeliveryError {
  return new DeliveryError(`${channel}: channel ${channel} is not configured`, { permanent: true });
}

/** Sends `message` to one target. Throws DeliveryError only; its message never holds a secret. */
export async function sendTo(target: ChannelTarget, message: PushMessage, options: NotifyOptions, progress?: PartProgress): Promise<void> {
  if (target.problem !== undefined) {
    throw new DeliveryError(`${target.channel}: ${target.problem}`, { permanent: true });
  }
  const timeoutMs = options.timeoutMs;
  switch (target.channel) {
    case "telegram":
      if (!options.telegram) throw notConfigured("telegram");
      return sendTelegram(message, { ...options.telegram, timeoutMs }, progress);
    case "bark": {
      if (!Object.hasOwn(options.barkKeys, target.target)) {
        if (Object.keys(options.barkKeys).length === 0) throw notConfigured("bark");
        throw new DeliveryError(`bark: Bark alias "${target.target}" is not in bark_map.json`, { permanent: true });
      }
      const deviceKey = options.barkKeys[target.target] ?? "";
      return sendBark(message, { ...options.bark, deviceKey, timeoutMs }, progress);
    }
    case "discord":
      if (!options.discord) throw notConfigured("discord");
      return sendDiscord(message, { ...options.discord, timeoutMs }, progress);
    case "onebot":
      if (!options.onebot) throw notConfigured("onebot");
      return sendOneBot(message, { ...options.onebot, timeoutMs }, progress);
    case "webhook":
      if (!options.webhook) throw notConfigured("webhook");
      return sendWebhook(message, { ...options.webhook, timeoutMs });
  }
}
