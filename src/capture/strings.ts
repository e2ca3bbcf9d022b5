/**
 * What a capture module and its upload script say of themselves in the proxy app (the module's name and
 * description, the script's log lines), in the language of the page it was installed from (`?lang=`), else its
 * region's. `%1`, `%2`: filled in by the script at run time.
 */
import type { Locale } from "../i18n/locales.ts";

export interface CaptureText {
  title: (region: string) => string;
  description: string;
  /** The script's log lines. */
  log: {
    gameStatus: string;
    emptyBody: string;
    overLimit: string;
    notBinary: string;
    noBody: string;
    failed: string;
    answered: string;
  };
}

export const CAPTURE_TEXT: Record<Locale, CaptureText> = {
  en: {
    title: (region) => `MySekai capture (${region})`,
    description: "Sends the MySekai save and birthday party deliveries to your server; the game gets its response untouched.",
    log: {
      gameStatus: "skipped: game answered %1",
      emptyBody: "skipped: empty body",
      overLimit: "skipped: body of %1 bytes is over the upload limit",
      notBinary: "skipped: the body is not binary (turn on binary-body-mode)",
      noBody: "skipped: no body",
      failed: "upload %1 failed: %2",
      answered: "upload %1 answered %2",
    },
  },
  "zh-Hans": {
    title: (region) => `MySekai 抓包上传（${region}）`,
    description: "把 MySekai 存档和生日派对的交付发送到你的服务器；游戏收到的响应原封不动。",
    log: {
      gameStatus: "跳过：游戏返回 %1",
      emptyBody: "跳过：内容为空",
      overLimit: "跳过：内容 %1 字节，超过上传上限",
      notBinary: "跳过：内容不是二进制（请打开 binary-body-mode）",
      noBody: "跳过：没有内容",
      failed: "上传 %1 失败：%2",
      answered: "上传 %1 服务器返回 %2",
    },
  },
  "zh-Hant": {
    title: (region) => `MySekai 擷取上傳（${region}）`,
    description: "把 MySekai 存檔和生日派對的交付傳送到你的伺服器；遊戲收到的回應原封不動。",
    log: {
      gameStatus: "略過：遊戲回應 %1",
      emptyBody: "略過：內容為空",
      overLimit: "略過：內容 %1 位元組，超過上傳上限",
      notBinary: "略過：內容不是二進位（請開啟 binary-body-mode）",
      noBody: "略過：沒有內容",
      failed: "上傳 %1 失敗：%2",
      answered: "上傳 %1 伺服器回應 %2",
    },
  },
  ja: {
    title: (region) => `MySekai キャプチャ（${region}）`,
    description: "MySekai のセーブと誕生日パーティーの納品をあなたのサーバーに送ります。ゲームへの応答はそのままです。",
    log: {
      gameStatus: "スキップ：ゲームの応答 %1",
      emptyBody: "スキップ：本文が空",
      overLimit: "スキップ：本文 %1 バイトはアップロード上限を超えています",
      notBinary: "スキップ：本文がバイナリではありません（binary-body-mode をオンに）",
      noBody: "スキップ：本文なし",
      failed: "アップロード %1 失敗：%2",
      answered: "アップロード %1 サーバーの応答 %2",
    },
  },
  ko: {
    title: (region) => `MySekai 캡처 (${region})`,
    description: "MySekai 세이브와 생일 파티 납품을 내 서버로 보냅니다. 게임이 받는 응답은 그대로입니다.",
    log: {
      gameStatus: "건너뜀: 게임 응답 %1",
      emptyBody: "건너뜀: 본문이 비어 있음",
      overLimit: "건너뜀: 본문 %1바이트가 업로드 한도를 넘음",
      notBinary: "건너뜀: 본문이 바이너리가 아님 (binary-body-mode를 켜세요)",
      noBody: "건너뜀: 본문 없음",
      failed: "업로드 %1 실패: %2",
      answered: "업로드 %1 서버 응답 %2",
    },
  },
};
