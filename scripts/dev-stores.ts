/**
 * A throwaway PostgreSQL and Swift for trying hub mode by hand: started on loopback ports in temp folders, their
 * settings printed as env lines, stopped and removed when this process ends (Ctrl-C).
 *
 *   bun scripts/dev-stores.ts
 */
import { databaseForThisFile, POSTGRES_MISSING } from "./lib/dev-postgres.ts";
import { swiftBucket, swiftSkipReason } from "./lib/dev-swift.ts";
import { newLinkKey } from "../src/link-key.ts";

const missing = POSTGRES_MISSING ?? swiftSkipReason;
if (missing !== null) {
  console.error(missing);
  process.exit(1);
}
const [url, bucket] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
// A hub does not start without LINK_KEY: give every process (and the owner CLI) these lines as they are.
console.log(`DATABASE_URL=${url}
LINK_KEY=${newLinkKey()}
ARCHIVE_URL=s3://${bucket.bucket}/hub
S3_ENDPOINT=${bucket.endpoint}
S3_REGION=${bucket.region}
S3_ACCESS_KEY_ID=${bucket.accessKeyId}
S3_SECRET_ACCESS_KEY=${bucket.secretAccessKey}
# Up until this process ends (Ctrl-C): both are removed then.`);
process.on("SIGINT", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
setInterval(() => {}, 1 << 30);
