/** The hub's PostgreSQL migrations (`npm run db:generate:pg`); the SQLite ones come from drizzle.config.ts. */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/pg/schema.ts",
  out: "./drizzle/pg",
});
