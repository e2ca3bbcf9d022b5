/** Guards in front of the upload and report routes, checked before a body is read (the disk floor: 507). */
import type { MiddlewareHandler } from "hono";

/** Refuses new bodies while DATA_DIR is below its free-space floor; accepted data is untouched. */
export function diskFloor(isFull: () => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (isFull()) return c.text("server storage is full; try again later", 507);
    await next();
  };
}
