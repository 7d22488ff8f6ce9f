/**
 * `npm run backup [-- <file>]` and `npm run restore -- <archive>` (docs/operations.md, Backups): the
 * commands are backup-commands.ts; this prints their outcome.
 */
import { BackupError } from "./backup-archive";
import { backup, restore, S3_NOTE } from "./backup-commands";

const [command, argument] = process.argv.slice(2);

async function main(): Promise<void> {
  if (command === "backup") {
    const { file, manifest } = await backup(argument);
    const files = manifest.files.included
      ? `${manifest.files.count} files (${manifest.files.bytes} bytes)`
      : "no files";
    console.info(
      `Backup written to ${file}: the database (${manifest.database.bytes} bytes, schema ${manifest.schemaVersion}), ${files}, ${manifest.dataFiles.join(" and ") || "no data files"}.`,
    );
    if (!manifest.files.included) console.info(S3_NOTE);
    return;
  }
  if (command === "restore" && argument) {
    const { dataDir, manifest, counts } = await restore(argument);
    console.info(
      `Restored the backup of ${manifest.createdAt} into ${dataDir}: ${counts.users} users, ${counts.products} products, ${counts.orders} orders and ${counts.productFiles} product files in the database; ${manifest.files.count} stored files. Start the server with DATA_DIR=${dataDir}.`,
    );
    return;
  }
  console.error("Use: npm run backup [-- <file>] | npm run restore -- <archive.tar.gz>");
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
});
