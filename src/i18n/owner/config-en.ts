/**
 * Why a setting stops the start, in English, and the shape of the other languages' (`ConfigMessages`): the start's
 * and the CLI's "cannot start" line (src/config/parse.ts ConfigError). Setting, file and variable names are passed
 * in and stay as written; the English text is what tests and operators match.
 */
export const configEn = {
  // One variable (src/config/parse.ts)
  numberRange: (name: string, integer: boolean, min: number, max: number, got: string) =>
    `${name} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got "${got}"`,
  flag: (name: string, got: string) => `${name} must be 1/true or 0/false, got "${got}"`,
  notUrl: (name: string, got: string | null) => (got === null ? `${name} is not a valid URL` : `${name} is not a valid URL: "${got}"`),
  notHttp: (name: string) => `${name} must be an http(s) URL`,
  notBase: (name: string) => `${name} must be a base URL without query, fragment or credentials`,
  notHeaderToken: (name: string) => `${name} must be printable ASCII without spaces`,
  oneOf: (name: string, choices: string, got: string) => `${name} must be one of ${choices}, got "${got}"`,
  locale: (name: string, choices: string, got: string) => `${name} must be one of ${choices} (zh means zh-Hans), got "${got}"`,
  noneOrAll: (name: string, got: string) => `${name} must be none or all, got "${got}"`,
  timeZone: (name: string, got: string) => `${name} must be an IANA time zone such as Asia/Tokyo, got "${got}"`,
  below: (name: string, value: number, limitName: string, limit: number) => `${name} (${value}) must be below ${limitName} (${limit})`,
  backoff: (name: string) => `${name} must be a comma-separated list of whole milliseconds, e.g. 2000,10000,60000`,
  tokenLength: (name: string, min: number) => `${name} must be at least ${min} characters (e.g. openssl rand -hex 24)`,
  hubLinkKey: (min: number) =>
    `hub mode (DATABASE_URL) needs LINK_KEY, the same on every process and for the owner CLI: without it each would seal players' links and the setup token with its own DATA_DIR/link.key, which the others cannot open. Make one with openssl rand -hex 32 (at least ${min} characters); to keep the links made so far, use the content of the DATA_DIR/link.key of the process that made them`,
  together: (name: string) => `${name} must be set together with the other`,
  onebotTargetMissing: "ONEBOT_TARGET must be set (group:<id> or private:<id>) with ONEBOT_URL",
  onebotTarget: "ONEBOT_TARGET must be group:<id> or private:<id>",
  // Where things live (archive.ts, database.ts, endpoints.ts)
  archiveUrl: "ARCHIVE_URL must be s3://<bucket>/<prefix> (credentials go in S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY)",
  archiveBucket: "ARCHIVE_URL's bucket must be 3-63 lowercase letters, digits, dots or hyphens",
  archivePrefix: "ARCHIVE_URL's prefix must be key-safe characters without empty, . or .. parts",
  databaseScheme: "DATABASE_URL must be a postgres:// or postgresql:// URL (unset for the SQLite file at DATABASE_PATH)",
  databaseParts: "DATABASE_URL must name a host and a database: postgres://user:password@host:5432/database",
  reportPath: "REPORT_PATH must be a URL path of letters, digits and . _ ~ - /",
  reportPathUpload: (path: string) => `REPORT_PATH must not be ${path}: that is the upload endpoint`,
  reportPathServed: (path: string) => `REPORT_PATH must not be ${path}: the service serves that path itself`,
  reportPathUnder: (prefix: string) => `REPORT_PATH must not be under ${prefix}: the service serves those paths itself`,
  // The game's keys (src/save/keys.ts): `name` is AES_KEY, AES_IV, "AES_KEYS[0] key"…
  hexEmpty: (name: string) => `${name} has a hex: prefix but no digits`,
  hexOdd: (name: string) => `${name} is not valid hex (odd number of digits)`,
  hexChars: (name: string) => `${name} is not valid hex (non-hex characters)`,
  base64Empty: (name: string) => `${name} has a base64: prefix but no data`,
  base64Bad: (name: string) => `${name} is not valid base64`,
  keyEmpty: (name: string) => `${name} is empty`,
  keyLength: (name: string, got: number) => `${name} must be 16, 24 or 32 bytes, got ${got}`,
  ivLength: (name: string, length: number, got: number) => `${name} must be ${length} bytes, got ${got}`,
  keyIvPair: (name: string) => `${name} must be key:iv (no ':' between key and IV)`,
  keyMissing: (name: string, other: string) => `${name} is missing (${other} is set; both are needed)`,
  // The routing files (src/notify/routing.ts)
  notJson: (file: string) => `${file}: not valid JSON`,
  notObject: (file: string) => `${file}: must be a JSON object`,
  routeMode: (file: string, player: string, mode: string, modes: string) => `${file}: player "${player}" has a route mode ${mode}; expected one of ${modes}`,
  routeObject: (file: string, player: string) => `${file}: player "${player}" has a route object without a "route" string`,
  routeType: (file: string, player: string, type: string) =>
    `${file}: player "${player}" has a route of type ${type}; expected a string, a {"route", "mode"} object or a list of them`,
  barkKey: (file: string, alias: string) => `${file}: alias "${alias}" must map to a non-empty device key string`,
  // src/instance-lock.ts
  dataDirInUse: (dir: string) => `another instance already serves DATA_DIR ${dir}`,
};

export type ConfigMessages = typeof configEn;
