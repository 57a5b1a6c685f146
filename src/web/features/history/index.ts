// The public face of a playlist's history: other features and pages import from here only.
export { disappearedQuery, historyPagePath, useUndo } from './history-api';
export { HistoryTimeline, RestoreProgress } from './history-timeline';
export { HistoryLink, UndoButton } from './undo-button';
