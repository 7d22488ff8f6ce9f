import type { Feature } from "../feature";
import { registerOperatorRoutes } from "./routes";

/** The operator console's base: who is an operator, the audit log (docs/operator.md). */
export const operatorFeature: Feature = {
  name: "operator",
  register: ({ server, db, auth }) => registerOperatorRoutes(server, { db, auth }),
};
