import type { Config } from "../config/index.ts";
import type { GroupCommitter } from "../db/group-commit.ts";
import type { Db } from "../db/open.ts";

/** What the routes need: the store, the configuration, and a way to wake the pipeline after a commit. */
export interface HttpDeps {
  db: Db;
  /** Request-path writes go through it: concurrent requests share one durable commit. */
  committer: GroupCommitter;
  config: Config;
  /** DATA_DIR/archive, where /maps/<token>/<file> reads from. */
  archiveRoot: string;
  wakePipeline: () => void;
  /** True while DATA_DIR is below MIN_FREE_DISK_MB (a cached reading, refreshed every few seconds). */
  diskFull: () => boolean;
}
