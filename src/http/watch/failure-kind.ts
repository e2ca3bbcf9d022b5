/** What kind of failure a capture's newest failed save had: its text is the page catalogue's (src/i18n/messages). */

export type FailureKind = "wrongKey" | "junk" | "harvest" | "other";

/** What kind of failure a job's reason names (the reasons of src/save/open.ts and the generate stage). */
export function failureKind(reason: string): FailureKind {
  if (/bad padding|cannot be a save|not a multiple of 16|implausible/i.test(reason)) return "wrongKey";
  if (/not MessagePack|not a MySekai save|empty body|junk/i.test(reason)) return "junk";
  if (/harvest/i.test(reason)) return "harvest";
  return "other";
}
