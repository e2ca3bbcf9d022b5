/** @jsxImportSource hono/jsx */
/** Banners for every state that stops the service from doing its job, each saying what to set. */
import type { Config } from "../../config/index.ts";
import type { HttpDeps } from "../deps.ts";
import { isLoopbackName } from "../front-door.ts";

export interface Banner {
  /** Short, stable: tests and styles find it by this. */
  id: "no-key" | "no-channel" | "disk-full" | "no-public-url" | "loopback-public-url";
  text: string;
}

/** What the owner's page warns about. */
export function serviceBanners(deps: Pick<HttpDeps, "config" | "disk" | "pushesOff">): Banner[] {
  const banners: Banner[] = [];
  if (deps.config.keys.length === 0) {
    banners.push({ id: "no-key", text: "No AES key is set: saves are kept but wait. Set AES_KEY and AES_IV (environment or .env) and restart; the waiting saves then run." });
  }
  if (deps.pushesOff) {
    banners.push({ id: "no-channel", text: "No push channel is configured: maps are archived but pushed nowhere. Set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID (or Discord, OneBot, a webhook, Bark) and restart." });
  }
  if (deps.disk.isFull()) {
    banners.push({ id: "disk-full", text: "Free disk is below MIN_FREE_DISK_MB: new uploads and reports get 507 until space is freed. Saves already accepted are safe." });
  }
  return banners;
}

/** What the setup page warns about: URLs a phone cannot reach. */
export function setupBanners(config: Pick<Config, "publicBaseUrl">, requestOrigin: string): Banner[] {
  const base = config.publicBaseUrl ?? requestOrigin;
  if (!isLoopbackName(new URL(base).hostname)) return config.publicBaseUrl === null ? [noPublicUrl] : [];
  return [config.publicBaseUrl === null ? noPublicUrl : { id: "loopback-public-url", text: `PUBLIC_BASE_URL is ${config.publicBaseUrl}, this machine itself: a phone cannot reach it. Set it to the address your phone reaches and restart.` }];
}

const noPublicUrl: Banner = {
  id: "no-public-url",
  text: "PUBLIC_BASE_URL is not set: these URLs use the address this page was opened at. Set PUBLIC_BASE_URL to the address your phone reaches (e.g. https://sekai.example.com) and restart.",
};

export function Banners({ banners }: { banners: Banner[] }) {
  return (
    <>
      {banners.map((banner) => (
        <p class="banner" role="alert" data-banner={banner.id}>
          {banner.text}
        </p>
      ))}
    </>
  );
}
