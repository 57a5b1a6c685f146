-- After the TypeScript step that ran after 0020 (vault/backup-upgrade.ts) recorded every backup's contents as
-- versions of the playlist histories (decision 0038): the copy is no longer read.
ALTER TABLE "backups" DROP COLUMN "contents";
