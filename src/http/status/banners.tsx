/** @jsxImportSource hono/jsx */
/** Banners for every state that stops the service from doing its job, each saying what to set. */
import type { Config } from "../../config/index.ts";
import type { Messages } from "../../i18n/messages/index.ts";
import type { HttpDeps } from "../deps.ts";
import { unreachableBase } from "../../config/public-base.ts";

export interface Banner {
  /** Short, stable: tests and styles find it by this. */
  id: "no-key" | "no-channel" | "disk-full" | "cannot-write" | "no-public-url" | "loopback-public-url" | "private-public-url" | "unknown-resources" | "setup-sealed-elsewhere";
  text: string;
}

/** What the owner's page warns about; `unknownResources`: resources recent maps showed that the catalogue does not know. */
export function serviceBanners(deps: Pick<HttpDeps, "config" | "disk" | "pushesOff" | "pipelineWriteProblem">, t: Messages, unknownResources = 0): Banner[] {
  const banners: Banner[] = [];
  if (deps.config.keys.length === 0) banners.push({ id: "no-key", text: t.bannerNoKey("AES_KEY", "AES_IV") });
  if (deps.pushesOff) banners.push({ id: "no-channel", text: t.bannerNoChannel("TELEGRAM_BOT_TOKEN", "TELEGRAM_CHAT_ID") });
  if (deps.disk.isFull()) banners.push({ id: "disk-full", text: t.bannerDiskFull("MIN_FREE_DISK_MB") });
  const cannotWrite = deps.pipelineWriteProblem?.() ?? null;
  if (cannotWrite !== null) banners.push({ id: "cannot-write", text: t.bannerCannotWrite(cannotWrite) });
  if (unknownResources > 0) banners.push({ id: "unknown-resources", text: t.unknownResources(unknownResources) });
  if (deps.config.publicBaseUrl !== null) banners.push(...unreachableBanner(deps.config.publicBaseUrl, t));
  return banners;
}

/** What the setup page warns about: URLs a phone cannot reach. */
export function setupBanners(config: Pick<Config, "publicBaseUrl">, t: Messages): Banner[] {
  if (config.publicBaseUrl === null) return [{ id: "no-public-url", text: t.bannerNoPublicUrl("PUBLIC_BASE_URL", "https://sekai.example.com") }];
  return unreachableBanner(config.publicBaseUrl, t);
}

/** A PUBLIC_BASE_URL only this machine, or only a private network, reaches: Bark's images and links fail on the road. */
function unreachableBanner(base: string, t: Messages): Banner[] {
  const reach = unreachableBase(base);
  if (reach === "loopback") return [{ id: "loopback-public-url", text: t.bannerLoopbackPublicUrl("PUBLIC_BASE_URL", base) }];
  return reach === "private" ? [{ id: "private-public-url", text: t.bannerPrivatePublicUrl("PUBLIC_BASE_URL", base) }] : [];
}

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
