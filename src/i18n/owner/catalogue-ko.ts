/** `catalogue update`와 `catalogue show`가 운영자에게 알리는 말, 한국어. */
import { mb, type CatalogueMessages } from "./catalogue-en.ts";

export const catalogueKo: CatalogueMessages = {
  badArgument: (arg) => `소스가 아닙니다: ${JSON.stringify(arg.slice(0, 80))}(<region>=<folder|url> 형식, region은 jp, en, cn, tw, kr 중 하나; region만 쓰려면 --fetch 필요)`,
  noSources: "서버를 하나 이상 지정하세요: <region>=<folder|url> 또는 --fetch",
  noFolder: (address) => `${address}: 그런 폴더가 없고 올바른 http(s) URL도 아닙니다`,
  missing: (file) => `${file}이(가) 없습니다: 불완전한 소스는 받지 않습니다`,
  empty: (file) => `${file}에 행이 없습니다: 불완전한 소스는 받지 않습니다`,
  notJson: (file) => `${file}은(는) 올바른 JSON이 아닙니다(잘렸나요?)`,
  notRows: (file) => `${file}은(는) 숫자 id를 가진 행의 목록이 아닙니다`,
  noDataVersion: "versions.json에 dataVersion이 없습니다",
  tooLarge: (file, cap) => `${file}이(가) ${mb(cap)}를 넘습니다`,
  notAFile: (file) => `${file}은(는) 일반 파일이 아닙니다`,
  duplicateIds: (file) => `${file}에 같은 id가 두 번 있습니다`,
  httpStatus: (file, status) => `${file}: 서버가 HTTP ${status}(으)로 응답했습니다`,
  timedOut: (file, seconds) => `${file}: ${seconds}초 안에 완전한 응답이 없었습니다`,
  unreachable: (file, reason) => `${file}: ${reason.slice(0, 160)}`,
  refused: (region, address, reason) => `${region}(${address}): ${reason}\n변경 없음: 사용 중인 카탈로그를 그대로 씁니다`,
  generatorFailed: (reason) => `이 마스터 데이터로는 카탈로그를 만들 수 없습니다: ${reason.slice(0, 300)}\n변경 없음: 사용 중인 카탈로그를 그대로 씁니다`,
  storedMalformed: (reason) => `저장된 업데이트를 읽을 수 없습니다(${reason}). 이번 업데이트로 대체합니다`,
  loaded: (region, version, address) => `${region}: 마스터 데이터 ${version}(${address})`,
  added: (c) =>
    `추가: 자원 ${c.resources}종, 구역 ${c.sites}개, 날씨 ${c.phenomena}종, 채집 지점 ${c.harvestFixtures}종, 생일 파티 ${c.parties}개, 곡 제목 ${c.songTitles}개`,
  glyphsMissing: (chars) =>
    `내장 지도 글꼴에 새 이름의 ${[...chars].length}자(${[...chars].slice(0, 40).join("")})가 없습니다: 그 글자가 든 글꼴이 릴리스될 때까지 PNG 지도에는 그려지지 않습니다(빈칸). summary.json, rare_resources.txt, 알림에는 모두 들어갑니다`,
  whenUsed: "저장했습니다: 실행 중인 서비스는 1분 안에(허브의 모든 프로세스), 새로 시작하는 서비스는 바로 사용합니다",
  showBuiltIn: (region, version) => `${region}: 내장, 마스터 데이터 ${version}`,
  showUpdated: (region, version, address, at) => `${region}: ${at} 업데이트, 마스터 데이터 ${version}(${address})`,
  showCounts: (resources, titles) => `운영자의 업데이트로 내장 카탈로그에 자원 ${resources}종과 곡 ${titles}곡이 더해졌습니다`,
};
