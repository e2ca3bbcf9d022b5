/** The notify group: every channel's settings from the environment, defaults applied once here. */
import type { BarkConfig } from "../notify/bark.ts";
import type { DiscordConfig } from "../notify/discord.ts";
import type { OneBotConfig } from "../notify/onebot.ts";
import type { TelegramConfig } from "../notify/telegram.ts";
import type { WebhookConfig } from "../notify/webhook.ts";
import { ConfigError, flag, httpUrl, number, text, type Env } from "./parse.ts";

/** Every channel's settings, defaults applied; null = not configured (Bark: by the keys in bark_map.json). */
export interface NotifyConfig {
  /**
   * Route of players not in push_map.json: NOTIFY_DEFAULT, else "telegram". The service routes by its setup's
   * route instead (src/notify/setup.ts: unset, the one channel configured).
   */
  defaultRoute: string;
  /** NOTIFY_DEFAULT was set. */
  defaultRouteSet: boolean;
  /** Base of image URLs (`<base>/archive/<relPath>/<file>`) when PUBLIC_BASE_URL is not set. */
  imageBase: string | null;
  /** NOTIFY_REPEAT: push every save, even one whose drops repeat the player's last push. */
  repeat: boolean;
  telegram: TelegramConfig | null;
  bark: BarkConfig;
  discord: DiscordConfig | null;
  onebot: OneBotConfig | null;
  webhook: WebhookConfig | null;
  /** NOTIFY_TIMEOUT_MS, for targets whose settings live in the database. */
  timeoutMs: number;
  /** Consumer webhooks' own lane (src/pipeline/consumer-lane.ts): a receiver that hangs never holds a chat push back. */
  consumers: { timeoutMs: number; concurrency: number };
}

/** NOTIFY_TIMEOUT_MS; every channel carries it. */
export function notifyTimeoutMs(env: Env): number {
  return number(env, "NOTIFY_TIMEOUT_MS", 30_000, 100, 600_000);
}

export function notifyConfig(env: Env): NotifyConfig {
  const botToken = text(env, "TELEGRAM_BOT_TOKEN");
  const chatId = text(env, "TELEGRAM_CHAT_ID");
  if ((botToken === null) !== (chatId === null)) {
    throw new ConfigError((m) => m.together(botToken ? "TELEGRAM_CHAT_ID" : "TELEGRAM_BOT_TOKEN"));
  }
  const onebotUrl = httpUrl(env, "ONEBOT_URL", true);
  const onebotTarget = text(env, "ONEBOT_TARGET");
  if (onebotUrl && !onebotTarget) throw new ConfigError((m) => m.onebotTargetMissing);
  if (onebotTarget && !/^(group|private):\d{1,15}$/.test(onebotTarget)) {
    throw new ConfigError((m) => m.onebotTarget);
  }
  const discordUrl = httpUrl(env, "DISCORD_WEBHOOK_URL", true);
  const webhookUrl = httpUrl(env, "WEBHOOK_URL", true);
  const imageBase = httpUrl(env, "BARK_IMAGE_BASE") ?? httpUrl(env, "FALLBACK_IMAGE_BASE");
  const timeoutMs = notifyTimeoutMs(env);
  return {
    defaultRoute: text(env, "NOTIFY_DEFAULT") ?? "telegram",
    defaultRouteSet: text(env, "NOTIFY_DEFAULT") !== null,
    imageBase,
    repeat: flag(env, "NOTIFY_REPEAT", false),
    telegram:
      botToken && chatId
        ? { apiBase: httpUrl(env, "TELEGRAM_API_BASE") ?? "https://api.telegram.org", botToken, chatId, timeoutMs }
        : null,
    bark: {
      server: httpUrl(env, "BARK_SERVER") ?? "https://api.day.app",
      icon: text(env, "BARK_ICON"),
      group: text(env, "BARK_GROUP"),
      timeoutMs,
    },
    discord: discordUrl ? { webhookUrl: discordUrl, timeoutMs } : null,
    onebot: onebotUrl && onebotTarget ? { url: onebotUrl, token: text(env, "ONEBOT_TOKEN"), target: onebotTarget, timeoutMs } : null,
    webhook: webhookUrl ? { url: webhookUrl, secret: text(env, "WEBHOOK_SECRET"), timeoutMs } : null,
    timeoutMs,
    consumers: {
      timeoutMs: number(env, "DATA_WEBHOOK_TIMEOUT_MS", Math.min(10_000, timeoutMs), 100, 600_000),
      concurrency: number(env, "DATA_WEBHOOK_CONCURRENCY", 4, 1, 64),
    },
  };
}
