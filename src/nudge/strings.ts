/**
 * The nudges' push text in each map language: a push is no page, so it follows the player's server's language
 * like their maps (MAP_LOCALE overrides), not a reader's. The page's nudge switch is in the page catalogue.
 */
import type { MapLocale } from "../config/maps.ts";

export interface NudgePushText {
  missedTitle: string;
  missed: (hours: number) => string;
  partialTitle: string;
  partial: string;
  setup: (url: string) => string;
  /** On a route others share (a group, the default route): never the personal link, which opens their settings. */
  askOwner: (url: string) => string;
}

export const NUDGE_PUSH_TEXT: Record<MapLocale, NudgePushText> = {
  "zh-Hans": {
    missedTitle: "MySekai：没有抓到刷新",
    missed: (hours) => `上次刷新后 ${hours} 小时内没有收到完整的 MySekai 存档。抓包还开着吗（模块已启用、证书已信任）？`,
    partialTitle: "MySekai：抓到的是部分刷新",
    partial: "游戏发来的刷新没有采集地图。解决：从标题画面重新进入 MySekai。",
    setup: (url) => `抓包配置：${url}`,
    askOwner: (url) => `抓包配置：向服主要你的个人链接，或打开 ${url}`,
  },
  "zh-Hant": {
    missedTitle: "MySekai：沒有擷取到刷新",
    missed: (hours) => `上次刷新後 ${hours} 小時內沒有收到完整的 MySekai 存檔。擷取還開著嗎（模組已啟用、憑證已信任）？`,
    partialTitle: "MySekai：擷取到的是部分刷新",
    partial: "遊戲送來的刷新沒有採集地圖。解決：從標題畫面重新進入 MySekai。",
    setup: (url) => `擷取設定：${url}`,
    askOwner: (url) => `擷取設定：向服主索取你的個人連結，或開啟 ${url}`,
  },
  ja: {
    missedTitle: "MySekai：更新を取り逃しました",
    missed: (hours) => `前回の更新から ${hours} 時間以内に完全な MySekai のセーブが届いていません。キャプチャは動いていますか（モジュールが有効、証明書が信頼済み）？`,
    partialTitle: "MySekai：部分更新を受け取りました",
    partial: "ゲームから採集マップのない更新が届きました。直し方：タイトル画面からマイセカイを開き直してください。",
    setup: (url) => `キャプチャ設定：${url}`,
    askOwner: (url) => `キャプチャ設定：管理者に個人用リンクをもらうか、${url} を開いてください`,
  },
  ko: {
    missedTitle: "MySekai: 갱신을 놓쳤습니다",
    missed: (hours) => `지난 갱신 후 ${hours}시간 안에 MySekai 전체 세이브가 오지 않았습니다. 캡처가 아직 켜져 있나요(모듈 활성화, 인증서 신뢰)?`,
    partialTitle: "MySekai: 부분 갱신을 받았습니다",
    partial: "게임이 채집 맵 없는 갱신을 보냈습니다. 해결: 타이틀 화면에서 마이세카이를 다시 여세요.",
    setup: (url) => `캡처 설정: ${url}`,
    askOwner: (url) => `캡처 설정: 관리자에게 개인 링크를 받거나 ${url} 을(를) 여세요`,
  },
  en: {
    missedTitle: "MySekai: no refresh captured",
    missed: (hours) => `No full MySekai save arrived within ${hours} h of the last refresh. Is the capture still on (module enabled, certificate trusted)?`,
    partialTitle: "MySekai: partial refresh captured",
    partial: "The game sent a refresh without harvest maps. Fix: open MySekai again from the title screen.",
    setup: (url) => `Capture setup: ${url}`,
    askOwner: (url) => `Capture setup: ask the owner for your personal link, or open ${url}`,
  },
};
