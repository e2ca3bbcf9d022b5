/**
 * The capture tools' contract (/work/shared/seed-spec.md): the paths, header rules and limits they rely on.
 * Changing one breaks a client in the field, so they live here once and everything else imports them.
 */
export const MIB = 1024 * 1024;

/** The upload endpoint; `/uploadMySekai` is the name in the design card. */
export const UPLOAD_PATHS = ["/uploadSaveData", "/uploadMySekai"] as const;

/** "A single chunk is larger than 1 MB" and "the cumulative total size of the upload exceeds 1 MB" are 413s. */
export const MAX_CHUNK_BYTES = MIB;
export const MAX_UPLOAD_BYTES = MIB;

/** X-Total-Chunks is 1 to 10. */
export const MAX_CHUNKS = 10;

export const UPLOAD_ID_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** REPORT_PATH's default; any other value may be the owner's secret. */
export const DEFAULT_REPORT_PATH = "/capture/report";

/** REPORT_MAX_SIZE's default, in MB (of `MIB` bytes). */
export const DEFAULT_REPORT_MAX_MB = 1;
