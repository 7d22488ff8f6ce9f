import pino from "pino";
import { loadConfig } from "../config";
import { migrateToLatest, openDatabase } from "./database";

const config = loadConfig();
const database = await openDatabase(config.database, pino());
await migrateToLatest(database.db);
await database.close();
console.info(`Database (${config.database.kind}) is up to date.`);
