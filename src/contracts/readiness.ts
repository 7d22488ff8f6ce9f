import { z } from "zod";
import { serviceStateSchema } from "./health";

/** GET /api/ready: whether this instance can take traffic now (docs/operations.md, ready vs health). */
export const readinessSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  checks: z.object({
    database: serviceStateSchema,
    storage: serviceStateSchema,
    jobs: serviceStateSchema,
  }),
  /** The checks that failed, named (empty when ready). */
  failing: z.array(z.enum(["database", "storage", "jobs"])),
});
export type Readiness = z.infer<typeof readinessSchema>;
