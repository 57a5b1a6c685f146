import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../logger';

/** A logger at `info` for tests that read back what was logged: `lines` holds each JSON record written. */
export function capturedLog(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}
