import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Structured JSON logs. Paths that could carry secrets are redacted wherever they appear, so a careless
 * `log.info({ headers })` still cannot leak a session cookie or a provider token.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        '*.authorization',
        '*.cookie',
        '*.password',
        '*.accessToken',
        '*.refreshToken',
        '*.token',
        'headers.authorization',
        'headers.cookie',
        'headers["music-user-token"]',
      ],
      censor: '[redacted]',
    },
  });
}
