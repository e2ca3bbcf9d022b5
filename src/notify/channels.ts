/** Dispatch of one routed target to its channel, with that channel's part of the notify configuration. */
import type { NotifyConfig } from "../config/index.ts";
import { sendBark } from "./bark.ts";
import { sendDiscord } from "./discord.ts";
import { DeliveryError, redact } from "./errors.ts";
import type { PartProgress, PushMessage } from "./message.ts";
import { sendOneBot } from "./onebot.ts";
import type { Channel, ChannelTarget } from "./routing.ts";
import { sendTelegram } from "./telegram.ts";
import { sendWebhook } from "./webhook.ts";

export { DeliveryError, redact };

/** Bark alias → device key, from bark_map.json (`Routing.barkKeys`). */
type BarkKeys = Record<string, string>;

/**
 * Whether a target reaches one person only: a Bark device, a OneBot private chat, a Telegram chat with a user's
 * (positive) id. A group, a Discord channel or a webhook may reach many.
 */
export function isOnePersonsChat(target: ChannelTarget, config: NotifyConfig): boolean {
  if (target.channel === "bark") return true;
  if (target.channel === "onebot") return config.onebot?.target.startsWith("private:") ?? false;
  if (target.channel === "telegram") return /^\d+$/.test(config.telegram?.chatId ?? "");
  return false;
}

/** The channels that can deliver (bark: when at least one device key is known). */
export function configuredChannels(config: NotifyConfig, barkKeys: BarkKeys): Set<Channel> {
  const channels = new Set<Channel>();
  if (config.telegram) channels.add("telegram");
  if (Object.keys(barkKeys).length > 0) channels.add("bark");
  if (config.discord) channels.add("discord");
  if (config.onebot) channels.add("onebot");
  if (config.webhook) channels.add("webhook");
  return channels;
}

function notConfigured(channel: string): DeliveryError {
  return new DeliveryError(`${channel}: channel ${channel} is not configured`, { permanent: true });
}

/** Sends `message` to one target. Throws DeliveryError only; its message never holds a secret. */
export async function sendTo(
  target: ChannelTarget,
  message: PushMessage,
  config: NotifyConfig,
  barkKeys: BarkKeys,
  progress?: PartProgress,
): Promise<void> {
  if (target.problem !== undefined) {
    throw new DeliveryError(`${target.channel}: ${target.problem}`, { permanent: true });
  }
  switch (target.channel) {
    case "telegram":
      if (!config.telegram) throw notConfigured("telegram");
      return sendTelegram(message, config.telegram, progress);
    case "bark": {
      const deviceKey = Object.hasOwn(barkKeys, target.target) ? barkKeys[target.target] : undefined;
      if (deviceKey === undefined) {
        if (Object.keys(barkKeys).length === 0) throw notConfigured("bark");
        throw new DeliveryError(`bark: Bark alias "${target.target}" is not in bark_map.json`, { permanent: true });
      }
      return sendBark(message, config.bark, deviceKey, progress);
    }
    case "discord":
      if (!config.discord) throw notConfigured("discord");
      return sendDiscord(message, config.discord, progress);
    case "onebot":
      if (!config.onebot) throw notConfigured("onebot");
      return sendOneBot(message, config.onebot, progress);
    case "webhook":
      if (!config.webhook) throw notConfigured("webhook");
      return sendWebhook(message, config.webhook);
  }
}
