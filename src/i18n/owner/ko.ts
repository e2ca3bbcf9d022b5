/** 페이지 밖에서 운영자가 읽는 문장(시작 로그, CLI), 한국어. */
import type { OwnerMessages } from "./en.ts";

export const ownerKo: OwnerMessages = {
  pushesTo: (where, why) => `push_map.json에 없는 플레이어의 알림 대상: ${where} (${why})`,
  pushesToNoOne: (why) => `push_map.json에 없는 플레이어에게는 알림을 보내지 않습니다 (${why})`,
  pushMapRoutes: (n) => `push_map.json에서 따로 지정한 플레이어 ${n}명`,
  pushesOff:
    "알림이 꺼져 있습니다: 설정된 알림 채널이 없습니다 (TELEGRAM_BOT_TOKEN과 TELEGRAM_CHAT_ID, DISCORD_WEBHOOK_URL, ONEBOT_URL, WEBHOOK_URL 또는 bark_map.json의 Bark 키를 설정하세요). 세이브는 계속 보관됩니다",
  whyNotifyDefault: "NOTIFY_DEFAULT",
  whyOneChannel: "설정된 유일한 채널",
  whyEveryChannel: "설정된 모든 채널; NOTIFY_DEFAULT로 바꿀 수 있습니다",
  whyOneBark: "bark_map.json의 유일한 Bark 기기",
  whyFallback: "기본 경로; NOTIFY_DEFAULT로 바꿀 수 있습니다",
  barkLeftOut: "Bark 기기는 push_map.json에서 지정한 플레이어만 받습니다",
  notConfigured: (channel) => `${channel} (설정 안 됨)`,
  at: (what, host) => `${what} (${host})`,
  defaultRouteName: "(기본 경로)",
  unknownAlias: (alias) => `Bark 별칭 "${alias}"이(가) bark_map.json에 없습니다`,
  routesToUnconfigured: (channel, who) => `${who}의 알림 대상이 ${channel}인데 ${channel}이(가) 설정되지 않았습니다`,
  defaultRouteHint: (configured) => `; 기본 경로는 NOTIFY_DEFAULT로 정합니다 (설정됨: ${configured})`,
  aliasShadowed: (alias) => `bark_map.json: 별칭 "${alias}"은(는) 채널 이름과 같아 쓰이지 않습니다`,
  inAll: (n) => `(모두 ${n}개)`,
  listening: "수신 대기 시작",
  shuttingDown: "종료하는 중",
  stopped: "종료됨",
  noKey: "AES 키가 설정되지 않았습니다 (AES_KEY/AES_IV): 세이브는 받아 두고 키를 기다립니다",
  linkKeyChanged: "설정 토큰이 다른 링크 키로 봉인되어 있습니다 (LINK_KEY 또는 DATA_DIR/link.key가 바뀌었습니다): 설치된 모듈은 계속 작동하지만, /setup은 설정 토큰을 새로 만든 뒤에야 링크를 보여 줍니다 (npm run cli -- setup rotate)",
  sessionsEnded: "운영자 토큰이나 링크 키가 세션을 연 때와 다릅니다(또는 처음 확인하는 시작입니다): 운영자 세션을 모두 끝냈습니다",
  clearTokensSealed: "이전 버전이 평문으로 저장한 링크와 설정 토큰을 봉인했습니다(그대로 쓸 수 있습니다)",
  launchEnv: "시작 설정 없이 시작했습니다: npm start처럼 MIMALLOC_PURGE_DELAY=250을 설정하세요 (README, 설정)",
  cannotStart: (why) => `시작할 수 없습니다: ${why}`,
  or: "또는",
  endpointUpload: "업로드",
  setupNeedsAdminToken: "열려면 ADMIN_TOKEN을 설정하세요: 없으면 /setup은 이 컴퓨터의 루프백에만 응답하는데, HOST가 거기서 수신하지 않습니다",
  endpointSetup: "캡처 설정 (운영자)",
  endpointReport: "리포트",
  reportDisabled: "리포트: 꺼짐 (REPORT_ENABLED=0)",
  publicBaseUnreachable: (name, url, kind) =>
    kind === "loopback"
      ? `${name}이(가) ${url}, 이 기기 자신입니다: 휴대폰이 접속할 수 없고 Bark의 이미지와 링크도 열리지 않습니다. 휴대폰이 접속할 수 있는 주소로 바꾸고 다시 시작하세요`
      : `${name}이(가) ${url}, 사설 네트워크 주소입니다: 같은 네트워크에서만 휴대폰이 접속할 수 있고 Bark의 이미지와 링크도 거기서만 열립니다`,
};
