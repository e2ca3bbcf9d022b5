/**
 * Each generated capture module, read the way its app reads it (sections, keys, the script line's
 * parameters), and its patterns run as the JS regexes they are against real URLs of every region and host.
 */
import { describe, expect, test } from "bun:test";
import { resolveModuleOptions } from "../../src/capture/module-options.ts";
import { MODULE_FORMATS, type ProxyApp } from "../../src/capture/modules.ts";
import { REGION_HOSTS, REGIONS, type Region } from "../../src/capture/regions.ts";

const SECRET = "s3tup-7f3a9c";
const SCRIPT_URL = `https://maps.example.org/setup/${SECRET}/capture.js`;
const PLAYER = "7488393821744390161";

interface ReadModule {
  sections: string[];
  scriptPattern: string;
  /** The birthday party delivery rule's pattern (same script, same parameters). */
  partyPattern: string;
  scriptParams: Record<string, string>;
  mitm: string[];
  /** [pattern, replacement] of the full-payload rewrite, when present. */
  rewrite?: [string, string];
}

/** `[Section]` → its non-empty, non-comment lines; lines before the first section under "". */
function sectionsOf(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>([["", []]]);
  let current = "";
  for (const line of text.split("\n")) {
    const header = /^\[(.+)\]$/.exec(line);
    if (header) sections.set((current = header[1]!), []);
    else if (line.trim() !== "" && !/^#(?!!)/.test(line)) sections.get(current)!.push(line);
  }
  return sections;
}

const keyValues = (parts: string[]) => Object.fromEntries(parts.map((part) => [part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1)]));

function only<T>(items: T[] | undefined): T {
  expect(items).toHaveLength(1);
  return items![0]!;
}

/** The save rule, then the birthday party rule. */
function two<T>(items: T[] | undefined): [T, T] {
  expect(items).toHaveLength(2);
  return [items![0]!, items![1]!];
}

const READERS: Record<ProxyApp, (text: string) => ReadModule> = {
  surge: readSurge,
  shadowrocket: readSurge,
  loon(text) {
    const sections = sectionsOf(text);
    const [save, party] = two(sections.get("Script")).map((line) => line.split(" "));
    const [type, pattern, ...params] = save!;
    expect(type).toBe("http-response");
    expect(party![0]).toBe("http-response");
    expect(keyValues(party!.slice(2).join(" ").split(/,\s*/))).toMatchObject({ ...keyValues(params.join(" ").split(/,\s*/)), tag: expect.stringContaining("birthday-party") });
    const rewrite = sections.get("Rewrite") && only(sections.get("Rewrite")).split(" ");
    if (rewrite) expect(rewrite[1]).toBe("header");
    return {
      sections: [...sections.keys()],
      scriptPattern: pattern!,
      partyPattern: party![1]!,
      scriptParams: keyValues(params.join(" ").split(/,\s*/)),
      mitm: only(sections.get("MITM")).replace(/^hostname = /, "").split(", "),
      rewrite: rewrite && [rewrite[0]!, rewrite[2]!],
    };
  },
  quantumultx(text) {
    const sections = sectionsOf(text);
    const rules = sections.get("rewrite_local")!.map((line) => line.split(" "));
    const [script, party] = two(rules.filter((rule) => rule[2] === "script-response-body"));
    expect(script).toHaveLength(4);
    expect(party.slice(1)).toEqual(script.slice(1));
    expect(script[1]).toBe("url");
    const redirect = rules.find((rule) => rule[2] === "307");
    if (redirect) expect(redirect.slice(1, 3)).toEqual(["url", "307"]);
    return {
      sections: [...sections.keys()],
      scriptPattern: script[0]!,
      partyPattern: party[0]!,
      scriptParams: { "script-path": script[3]! },
      mitm: only(sections.get("mitm")).replace(/^hostname = /, "").split(", "),
      rewrite: redirect && [redirect[0]!, redirect[3]!],
    };
  },
  stash(text) {
    const yaml = Bun.YAML.parse(text) as {
      name: string;
      http: { mitm: string[]; script: Record<string, unknown>[]; "url-rewrite"?: string[] };
      "script-providers": Record<string, { url: string; interval: number }>;
    };
    const [script, party] = two(yaml.http.script);
    expect({ ...party, match: undefined }).toEqual({ ...script, match: undefined });
    expect(Object.keys(script).sort()).toEqual(["binary-mode", "match", "max-size", "name", "require-body", "timeout", "type"]);
    expect(script).toMatchObject({ type: "response", "require-body": true, "binary-mode": true });
    const provider = yaml["script-providers"][String(script.name)];
    const rewrite = yaml.http["url-rewrite"] && only(yaml.http["url-rewrite"]).split(" ");
    if (rewrite) expect(rewrite[2]).toBe("header");
    return {
      sections: Object.keys(yaml.http).sort(),
      scriptPattern: String(script.match),
      partyPattern: String(party.match),
      scriptParams: { "script-path": provider!.url, "max-size": String(script["max-size"]), timeout: String(script.timeout) },
      mitm: yaml.http.mitm,
      rewrite: rewrite && [rewrite[0]!, rewrite[1]!],
    };
  },
};

function readSurge(text: string): ReadModule {
  const sections = sectionsOf(text);
  expect(sections.get("")!.some((line) => line.startsWith("#!name="))).toBe(true);
  const [script, party] = two(sections.get("Script")).map((line) => /^(\S+) = (.+)$/.exec(line)!);
  const params = keyValues(script![2]!.split(","));
  const partyParams = keyValues(party![2]!.split(","));
  expect(party![1]).toContain("birthday-party");
  expect({ ...partyParams, pattern: "" }).toEqual({ ...params, pattern: "" });
  expect(Object.keys(params).sort()).toEqual(["binary-body-mode", "max-size", "pattern", "requires-body", "script-path", "timeout", "type"]);
  expect(params).toMatchObject({ type: "http-response", "requires-body": "1", "binary-body-mode": "1" });
  const rewrite = sections.get("URL Rewrite") && only(sections.get("URL Rewrite")).split(" ");
  if (rewrite) expect(rewrite[2]).toBe("header");
  return {
    sections: [...sections.keys()],
    scriptPattern: params.pattern!,
    partyPattern: partyParams.pattern!,
    scriptParams: params,
    mitm: only(sections.get("MITM")).replace(/^hostname = %APPEND% /, "").split(", "),
    rewrite: rewrite && [rewrite[0]!, rewrite[1]!],
  };
}

const EXPECTED_SECTIONS: Record<ProxyApp, [string[], string[]]> = {
  surge: [["", "Script", "MITM"], ["", "URL Rewrite", "Script", "MITM"]],
  shadowrocket: [["", "Script", "MITM"], ["", "URL Rewrite", "Script", "MITM"]],
  loon: [["", "Script", "MITM"], ["", "Rewrite", "Script", "MITM"]],
  quantumultx: [["", "rewrite_local", "mitm"], ["", "rewrite_local", "mitm"]],
  stash: [["mitm", "script"], ["mitm", "script", "url-rewrite"]],
};

const saveUrl = (host: string, key: string, value: string) => `https://${host}/api/user/${PLAYER}/mysekai?${key}=${value}`;
const KEYS = ["isForceAllReloadOnlyMysekai", "isForceAllReloadOnlyMySekai"];

function saveUrls(region: Region) {
  return REGION_HOSTS[region].flatMap((host) => KEYS.flatMap((key) => ["True", "False"].map((value) => saveUrl(host, key, value))));
}

function notSaves(region: Region) {
  const host = REGION_HOSTS[region][0];
  const otherRegion = REGIONS.find((r) => r !== region)!;
  return [
    `https://${host}/api/user/${PLAYER}/mysekai/birthday-party/12/delivery`,
    `https://${host}/api/user/${PLAYER}/mysekai/birthday-party/12/delivery?isForceAllReloadOnlyMysekai=True`,
    `https://${host}/api/user/${PLAYER}/mysekai-extra?isForceAllReloadOnlyMysekai=True`,
    `https://${host}/api/user/${PLAYER}/home?isForceAllReloadOnlyMysekai=True`,
    `https://${host}.evil.example/api/user/${PLAYER}/mysekai?isForceAllReloadOnlyMysekai=True`,
    saveUrl(REGION_HOSTS[otherRegion][0], "isForceAllReloadOnlyMysekai", "True"),
  ];
}

function partyUrls(region: Region) {
  return REGION_HOSTS[region].flatMap((host) => [`https://${host}/api/user/${PLAYER}/mysekai/birthday-party/12/delivery`, `https://${host}/api/user/${PLAYER}/mysekai/birthday-party/3/delivery?x=1`]);
}

function notParties(region: Region) {
  const host = REGION_HOSTS[region][0];
  const otherRegion = REGIONS.find((r) => r !== region)!;
  return [
    `https://${host}/api/user/${PLAYER}/mysekai/birthday-party/12`,
    `https://${host}/api/user/${PLAYER}/mysekai/birthday-party/12/delivery/more`,
    `https://${host}/api/user/${PLAYER}/mysekai/birthday-party/1/2/delivery`,
    `https://${host}.evil.example/api/user/${PLAYER}/mysekai/birthday-party/12/delivery`,
    `https://${REGION_HOSTS[otherRegion][0]}/api/user/${PLAYER}/mysekai/birthday-party/12/delivery`,
  ];
}

describe.each(Object.keys(MODULE_FORMATS) as ProxyApp[])("%s module", (app) => {
  const generate = MODULE_FORMATS[app].generate;

  test.each(REGIONS)("%s: sections, script line, MITM hosts; the pattern matches every save URL and nothing else", (region) => {
    const read = READERS[app](generate(region, { scriptUrl: SCRIPT_URL, maxBytes: 600_000, timeoutSeconds: 45 }));
    expect(read.sections).toEqual(EXPECTED_SECTIONS[app][0]);
    expect(read.rewrite).toBeUndefined();
    expect(read.scriptParams["script-path"]).toBe(SCRIPT_URL);
    if (app !== "quantumultx") expect(read.scriptParams).toMatchObject({ "max-size": "600000", timeout: "45" });
    expect(read.mitm).toEqual([...REGION_HOSTS[region]]);

    const pattern = new RegExp(read.scriptPattern);
    for (const url of saveUrls(region)) expect({ url, match: pattern.test(url) }).toEqual({ url, match: true });
    for (const url of notSaves(region)) expect({ url, match: pattern.test(url) }).toEqual({ url, match: false });
    expect(pattern.test(saveUrl(REGION_HOSTS[region][0], "isForceAllReloadOnlyMysekai", "True").replace("?", "?lang=ja&"))).toBe(true);

    // The birthday party delivery: a rule of its own, matching every host's delivery URL and no save.
    const party = new RegExp(read.partyPattern);
    for (const url of partyUrls(region)) expect({ url, match: party.test(url) }).toEqual({ url, match: true });
    for (const url of [...saveUrls(region), ...notParties(region)]) expect({ url, match: party.test(url) }).toEqual({ url, match: false });
  });

  test.each(REGIONS)("%s: the full-payload rewrite turns False into True and leaves everything else alone", (region) => {
    const read = READERS[app](generate(region, { scriptUrl: SCRIPT_URL, forceFullPayload: true }));
    expect(read.sections).toEqual(EXPECTED_SECTIONS[app][1]);
    const [source, replacement] = read.rewrite!;
    const rewrite = (url: string) => url.replace(new RegExp(source), replacement);
    for (const host of REGION_HOSTS[region]) {
      for (const key of KEYS) {
        expect(rewrite(saveUrl(host, key, "False"))).toBe(saveUrl(host, key, "True"));
        expect(rewrite(`${saveUrl(host, key, "False")}&x=1`)).toBe(`${saveUrl(host, key, "True")}&x=1`);
        expect(rewrite(saveUrl(host, key, "True"))).toBe(saveUrl(host, key, "True"));
      }
    }
    for (const url of notSaves(region)) expect(rewrite(url.replace("True", "False"))).toBe(url.replace("True", "False"));
  });

  test("patterns fit the app's line format: no spaces, commas or quotes", () => {
    const read = READERS[app](generate("en", { scriptUrl: SCRIPT_URL, forceFullPayload: true }));
    for (const part of [read.scriptPattern, read.partyPattern, ...read.rewrite!]) expect(part).not.toMatch(/[\s,"']/);
  });
});

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return String(error);
  }
  throw new Error("did not throw");
}

describe("module options", () => {
  test("defaults: the upload limit and a 30 s timeout, no rewrite", () => {
    expect(resolveModuleOptions({ scriptUrl: SCRIPT_URL })).toEqual({ scriptUrl: SCRIPT_URL, forceFullPayload: false, maxBytes: 1024 * 1024, timeoutSeconds: 30, locale: "en" });
  });

  test.each([
    [`${SCRIPT_URL},x`],
    [`${SCRIPT_URL} x`],
    [`${SCRIPT_URL}'x`],
    [`ftp://maps.example.org/${SECRET}`],
    [`javascript:${SECRET}`],
  ])("a script URL that would break a line is refused without being quoted: %s", (scriptUrl) => {
    for (const { generate } of Object.values(MODULE_FORMATS)) {
      const error = thrown(() => generate("jp", { scriptUrl }));
      expect(error).toMatch(/scriptUrl must be/);
      expect(error).not.toContain(SECRET);
    }
  });

  test.each([[0], [1024 * 1024 + 1], [1.5]])("maxBytes %p is refused", (maxBytes) => {
    expect(() => resolveModuleOptions({ scriptUrl: SCRIPT_URL, maxBytes })).toThrow(/maxBytes/);
  });

  test.each([[0], [301], [2.5]])("timeoutSeconds %p is refused", (timeoutSeconds) => {
    expect(() => resolveModuleOptions({ scriptUrl: SCRIPT_URL, timeoutSeconds })).toThrow(/timeoutSeconds/);
  });
});
