import { userInfo } from "node:os";
import pino from "pino";
import { loadConfig } from "../../config";
import { migrateToLatest, openDatabase } from "../../db/database";
import { type GrantResult, grantOperator, revokeOperator } from "./operator-grants";

/**
 * Operators are made here and nowhere else (docs/operator.md):
 *   npm run operator:grant -- ada@example.com
 *   npm run operator:revoke -- ada@example.com
 * The account must exist (sign up first). With the embedded database, stop the server first: only one
 * process may open it.
 */
const [command, email] = process.argv.slice(2);
if ((command !== "grant" && command !== "revoke") || !email?.includes("@")) {
  console.error("Usage: npm run operator:grant -- <email>   or   npm run operator:revoke -- <email>");
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase(config.database, pino({ level: "warn" }));
try {
  // As boot does: a fresh or older data folder gets the tables first.
  await migrateToLatest(database.db);
  const actor = `command line (${userInfo().username})`;
  const result =
    command === "grant"
      ? await grantOperator(database.db, email, actor, new Date())
      : await revokeOperator(database.db, email, actor, new Date());
  const { message, exitCode } = describe(result);
  (exitCode === 0 ? console.info : console.error)(message);
  process.exitCode = exitCode;
} finally {
  await database.close();
}

function describe(result: GrantResult): { message: string; exitCode: number } {
  switch (result.outcome) {
    case "no-account":
      return { message: `No account with the email ${result.email}: sign up first.`, exitCode: 1 };
    case "granted":
    case "already": {
      const done = result.outcome === "granted" ? "is now an operator" : "was already an operator";
      const twoFactor = result.twoFactor
        ? ""
        : "\nThe console asks for two-factor authentication: turn it on in Settings → Security first.";
      return { message: `${result.email} ${done}.${twoFactor}`, exitCode: 0 };
    }
    case "revoked":
      return { message: `${result.email} is no longer an operator.`, exitCode: 0 };
    case "was-not":
      return { message: `${result.email} was not an operator.`, exitCode: 0 };
  }
}
