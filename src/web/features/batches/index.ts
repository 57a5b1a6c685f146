// The public face of batches: other features and pages import from here only.
export { BatchPicker } from './batch-picker';
export { BatchProgressList } from './batch-progress';
export { BatchReviewList } from './batch-review-list';
export { BATCHES_KEY, batchQuery, useBatch, useStartBatchTransfer } from './batches-api';
