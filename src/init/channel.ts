/**
 * The one chat channel: its settings, checked by the service's own config parsing, then proved with a test message
 * through the service's own sender (src/notify/channels.ts) before the phone part. A failure is said as the status
 * page's kind in the owner's language, with the sender's (redacted) detail, and the owner re-enters or keeps.
 */
import { notifyConfig, type NotifyConfig } from "../config/notify.ts";
import { headerToken, reasonIn, type Env } from "../config/parse.ts";
import { errorKind } from "../failure-kind.ts";
import type { Locale } from "../i18n/locales.ts";
import { MESSAGES } from "../i18n/messages/index.ts";
import { sendTo } from "../notify/channels.ts";
import type { PushMessage } from "../notify/message.ts";
import { parseRoutingFiles, type Channel } from "../notify/routing.ts";
import { envValue, NotWritable, type Settings } from "./env-file.ts";
import type { Prompter } from "./prompts.ts";

/** The test message's own bound: a wrong port or a silent server is told in seconds, not in the service's 30. */
export const TEST_TIMEOUT_MS = 5_000;

/** Bark's alias in bark_map.json: routes name it (README, Bark). */
export const BARK_ALIAS = "phone";

type Choice = Channel | "none";

export interface ChannelSetup {
  /** Lines for .env. */
  env: Settings;
  /** Bark's device key, for config/bark_map.json. */
  barkKey: string | null;
}

/** QQ first for a Chinese reader; Telegram and Discord first for the others. */
function order(locale: Locale): Choice[] {
  return locale.startsWith("zh") ? ["onebot", "bark", "telegram", "discord", "webhook", "none"] : ["telegram", "discord", "bark", "onebot", "webhook", "none"];
}

/** Each value checked as the service will read it, and as .env can hold it: the channel's settings for the test message. */
function check(settings: Settings, barkKey: string | null): NotifyConfig {
  for (const value of Object.values(settings)) envValue(value);
  const env: Env = settings;
  const config = notifyConfig({ ...env, NOTIFY_TIMEOUT_MS: String(TEST_TIMEOUT_MS) });
  headerToken(env, "ONEBOT_TOKEN");
  if (barkKey !== null) parseRoutingFiles(null, JSON.stringify({ [BARK_ALIAS]: barkKey }));
  return config;
}

async function settingsFor(channel: Channel, p: Prompter): Promise<ChannelSetup> {
  const m = p.m;
  const optional = (name: string, value: string): Settings => (value === "" ? {} : { [name]: value });
  switch (channel) {
    case "onebot": {
      const url = await p.ask(m.onebotUrl, "http://127.0.0.1:3000");
      const token = await p.askSecret(m.onebotToken);
      const target = await p.ask(m.onebotTarget);
      return { env: { ONEBOT_URL: url, ...optional("ONEBOT_TOKEN", token), ONEBOT_TARGET: /^\d+$/.test(target) ? `group:${target}` : target }, barkKey: null };
    }
    case "bark": {
      const answer = await p.askSecret(m.barkKey);
      // The app's example URL (https://api.day.app/<key>/…): its first path segment is the key, its origin the server.
      const pasted = /^https?:\/\//.test(answer) && URL.canParse(answer) ? new URL(answer) : null;
      const barkKey = pasted ? decodeURIComponent(pasted.pathname.split("/")[1] ?? "") : answer;
      const server = pasted ? pasted.origin : await p.ask(m.barkServer, "https://api.day.app");
      return { env: server === "https://api.day.app" ? {} : { BARK_SERVER: server }, barkKey };
    }
    case "telegram":
      return { env: { TELEGRAM_BOT_TOKEN: await p.askSecret(m.telegramToken), TELEGRAM_CHAT_ID: await p.ask(m.telegramChat) }, barkKey: null };
    case "discord":
      return { env: { DISCORD_WEBHOOK_URL: await p.askSecret(m.discordUrl) }, barkKey: null };
    case "webhook":
      return { env: { WEBHOOK_URL: await p.ask(m.webhookUrl), ...optional("WEBHOOK_SECRET", await p.askSecret(m.webhookSecret)) }, barkKey: null };
  }
}

function testMessage(p: Prompter): PushMessage {
  return { playerId: "0", saveId: 0, capturedAt: new Date(), title: p.m.testTitle, summaryText: p.m.testBody, summary: {}, images: [], pageUrl: null };
}

/** Sends the test message; null when it arrived, else why not (kind in the owner's language, the detail as the sender said it). */
async function sendTest(channel: Channel, setup: ChannelSetup, config: NotifyConfig, p: Prompter, locale: Locale): Promise<string | null> {
  const barkKeys: Record<string, string> = setup.barkKey === null ? {} : { [BARK_ALIAS]: setup.barkKey };
  p.say(p.m.testing(TEST_TIMEOUT_MS / 1000));
  try {
    await sendTo({ channel, target: channel === "bark" ? BARK_ALIAS : "default" }, testMessage(p), config, barkKeys);
    return null;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return p.m.testFailed(MESSAGES[locale].errorKinds[errorKind(detail)], detail);
  }
}

/** The channel chosen, its settings taken once the service would read them and the test message arrived (or kept anyway). */
export async function askChannel(p: Prompter, locale: Locale): Promise<ChannelSetup> {
  const channel = await p.choose<Choice>(p.m.channel, order(locale).map((value) => ({ value, label: p.m.channels[value] })));
  if (channel === "none") return { env: {}, barkKey: null };
  for (;;) {
    const setup = await settingsFor(channel, p);
    let config: NotifyConfig;
    try {
      config = check(setup.env, setup.barkKey);
    } catch (error) {
      p.say(`  ✗ ${error instanceof NotWritable ? p.m.notWritable(error.message) : reasonIn(locale)(error)}`);
      continue;
    }
    const failure = await sendTest(channel, setup, config, p, locale);
    if (failure === null) {
      p.say(`  ✓ ${p.m.testSent}`);
      return setup;
    }
    p.say(`  ✗ ${failure}`);
    const again = await p.choose(p.m.afterFailure, [
      { value: true, label: p.m.reenter },
      { value: false, label: p.m.keepAnyway },
    ]);
    if (!again) return setup;
  }
}
