import type { Feature } from "../feature";
import { registerAuthRoutes } from "./routes";

/** Sign-up, sign-in, two-factor and password reset (Better Auth, made once in app.ts). */
export const authFeature: Feature = {
  name: "auth",
  register: ({ server, auth, db }) => registerAuthRoutes(server, { auth, db }),
};
