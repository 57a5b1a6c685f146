/**
 * What a service says went wrong, in its own terms: the request was invalid, the thing is not there, the
 * plan does not allow it. Services throw these and never know about HTTP; one place (`http/errors.ts`,
 * `renderError`) turns each kind into a status. The message is written for the person and shown as is.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'rate_limited'
  | 'not_configured'
  /** A service we depend on (a cloud drive) is not answering; trying later may work. */
  | 'unavailable';

/** A problem with one row of a list or file the person sent; `row` is 1-based, as a spreadsheet shows it. */
export interface RowProblem {
  row: number;
  message: string;
}

export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** For `rate_limited`: when the person may try again. */
    readonly retryAfterSeconds?: number,
    /** For `invalid` lists and files: what was wrong with which row, answered beside the message. */
    readonly problems?: readonly RowProblem[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new DomainError('invalid', message);
/** A list or file with nothing usable in it: the answer carries each row's problem so the page can show them. */
export const invalidRows = (message: string, problems: readonly RowProblem[]) =>
  new DomainError('invalid', message, undefined, problems);
export const unauthorized = (message = 'Please sign in to continue.') =>
  new DomainError('unauthenticated', message);
export const paymentRequired = (message: string) => new DomainError('payment_required', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
/** It existed but is over for good (an expired invitation). */
export const gone = (message: string) => new DomainError('gone', message);
export const tooLarge = (message: string) => new DomainError('too_large', message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new DomainError('rate_limited', message, Math.max(1, Math.ceil(retryAfterSeconds)));
export const unavailable = (message: string) => new DomainError('unavailable', message);
/** The server is missing a setting the operator has to add (Apple keys, a payment provider). */
export const notConfigured = (message: string) => new DomainError('not_configured', message);
