import type { AppDeps } from '../app-context';
import { BACKUP_JOB_KIND, createBackupJobHandler } from '../backups/backup-job';
import { createMatchJobHandler } from '../transfers/match-job';
import { MATCH_JOB } from '../transfers/match-service';
import { createTransferJobHandler, TRANSFER_JOB } from '../transfers/transfer-job';
import type { JobHandler } from './job-runner';

/** Every kind of background job and its handler. */
export function jobHandlers(deps: AppDeps): Record<string, JobHandler> {
  return {
    [MATCH_JOB]: createMatchJobHandler(deps),
    [TRANSFER_JOB]: createTransferJobHandler(deps),
    [BACKUP_JOB_KIND]: createBackupJobHandler(deps),
  };
}
