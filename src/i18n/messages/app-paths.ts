/**
 * Where each capture app keeps its certificate and its switches, by the names its own screens show (the page
 * catalogues' `appPaths`): the apps' English screens, and their Simplified Chinese ones. zh-Hant, ja and ko readers
 * see the English names (no guide of those apps' screens in those languages was at hand).
 */
import type { ProxyApp } from "../../capture/modules.ts";

export type AppPaths = Record<ProxyApp, { cert: string; enable: string }>;

/** Where each app keeps its certificate and its switches, by the names its own screens show. */
export const APP_PATHS_EN: AppPaths = {
  surge: { cert: "MitM → Generate New CA Certificate → Install Certificate", enable: "MitM · Rewrite · Scripting" },
  shadowrocket: { cert: "Settings → Certificate → Generate New Certificate → Install Certificate", enable: "Config → HTTPS Decryption · Modules" },
  loon: { cert: "Configuration → MitM → Certificate → Generate → Install", enable: "MitM · Script · Rewrite" },
  quantumultx: { cert: "Settings → MitM → Generate Certificate → Configure Certificate", enable: "MitM · Rewrite" },
  stash: { cert: "Settings → MitM → Generate CA Certificate → Install", enable: "MitM · Script · Rewrite" },
};

/**
 * The same in the apps' Simplified Chinese screens, as their Chinese guides name them: Shadowrocket (配置 → ⓘ →
 * HTTPS 解密 → 证书), Loon (配置 → 证书管理; 脚本 · 复写 · MitM), Quantumult X (MitM → 生成证书 → 配置证书),
 * Stash (MitM → 生成新的 CA 证书; 改写), Surge (HTTPS 解密). Other languages read the English names.
 */
export const APP_PATHS_ZH_HANS: AppPaths = {
  surge: { cert: "HTTPS 解密 → 生成新的 CA 证书 → 安装证书", enable: "HTTPS 解密 · 重写 · 脚本" },
  shadowrocket: { cert: "配置 → 配置文件右侧的 ⓘ → HTTPS 解密 → 证书 → 生成新的 CA 证书 → 安装证书", enable: "配置 → ⓘ → HTTPS 解密 · 配置 → 模块" },
  loon: { cert: "配置 → 证书管理 → 生成新的CA证书 → 安装CA证书", enable: "配置 → 脚本 · 复写 · MitM" },
  quantumultx: { cert: "设置（右下角风车）→ MitM → 生成证书 → 配置证书", enable: "重写 · MitM" },
  stash: { cert: "首页 → MitM → 生成新的 CA 证书 → 安装证书", enable: "首页 → MitM · 脚本 · 改写" },
};
