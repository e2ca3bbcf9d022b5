/** The upload script's text: baked-in values are safe JS string literals, bad settings are refused unquoted. */
import { describe, expect, test } from "bun:test";
import { httpClientUploadScript, jsStringLiteral, quantumultXUploadScript } from "../../src/capture/upload-script.ts";

/** The value a `var NAME = ...;` line of the script evaluates to. */
function bakedValue(script: string, name: string): unknown {
  const line = script.match(new RegExp(`var ${name} = .*;`))![0];
  return new Function(`${line} return ${name};`)();
}

describe("upload script text", () => {
  test.each([['"); $done(); ("'], ["back\\slash 'quote'"], ["line\u2028sep\u2029par\nnew"], ["</script>"]])("%p survives as a JS string literal", (text) => {
    expect(new Function(`return ${jsStringLiteral(text)};`)()).toBe(text);
    expect(jsStringLiteral(text)).not.toMatch(/[\u2028\u2029\n]/);
  });

  test.each([httpClientUploadScript, quantumultXUploadScript])("compiles, and bakes the upload URL under a path prefix and the token", (generate) => {
    const script = generate({ serverUrl: "https://maps.example.org/mysekai/", uploadToken: 'a"b\\c' });
    expect(() => new Function(script)).not.toThrow();
    expect(bakedValue(script, "UPLOAD_URL")).toBe("https://maps.example.org/mysekai/uploadSaveData");
    expect(bakedValue(script, "UPLOAD_TOKEN")).toBe('a"b\\c');
    expect(bakedValue(generate({ serverUrl: "http://10.0.0.2:9478" }), "UPLOAD_TOKEN")).toBeNull();
  });

  test.each([["ftp://maps.example.org"], ["https://maps.example.org/?k=SECRETX"], ["https://u:SECRETX@maps.example.org"], ["not a url SECRETX"]])(
    "server URL %p is refused without being quoted",
    (serverUrl) => {
      expect(() => httpClientUploadScript({ serverUrl })).toThrow(/^serverUrl must be an http\(s\) URL without query, fragment or credentials$/);
    },
  );

  test.each([["two words-SECRETX"], ["line\nSECRETX"], [""]])("upload token %p is refused without being quoted", (uploadToken) => {
    expect(() => quantumultXUploadScript({ serverUrl: "https://maps.example.org", uploadToken })).toThrow(/^uploadToken must be printable ASCII without spaces$/);
  });

  test("timeoutSeconds outside 1..300 is refused", () => {
    expect(() => httpClientUploadScript({ serverUrl: "https://maps.example.org", timeoutSeconds: 0 })).toThrow(/timeoutSeconds/);
    expect(() => httpClientUploadScript({ serverUrl: "https://maps.example.org", timeoutSeconds: 301 })).toThrow(/timeoutSeconds/);
  });
});
