import { loadConfig } from "../config";
import { migrateToLatest, openDatabase } from "./database";

const config = loadConfig();
const database = await openDatabase(config.database);
await migrateToLatest(database.db);
await database.close();
console.info(`Database (${config.database.kind}) is up to date.`);
