import { z } from "zod";

export const serviceStateSchema = z.enum(["ok", "down"]);
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  services: z.object({
    database: serviceStateSchema,
    storage: serviceStateSchema,
    payments: serviceStateSchema,
    mail: serviceStateSchema,
  }),
});
export type Health = z.infer<typeof healthSchema>;
