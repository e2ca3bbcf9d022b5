/**
 * archive: the stage between drawing and archiving in versions that kept the drawn files in SQLite. generate
 * now writes the archive itself, so a job left here (queued before an upgrade) draws again.
 */
import type { Stage } from "../stage.ts";

export const archiveStage: Stage = async () => ({ kind: "advance", next: "generate", note: "drawn files are no longer kept between stages: drawing again" });
