/**
 * Stripe's error answers: `{"error": {"type", "code", "message", "param", "doc_url"}}` with the status
 * the official clients map to their error classes (400 invalid request, 401 authentication, 402 card,
 * 404 missing resource, 409 idempotency conflict).
 */
export type StripeErrorType =
  | 'invalid_request_error'
  | 'card_error'
  | 'api_error'
  | 'idempotency_error'
  | 'authentication_error';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  toBody(): { error: Record<string, string> } {
    return {
      error: {
        ...(this.code
          ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${docSlug(this.code)}` }
          : {}),
        ...(this.declineCode ? { decline_code: this.declineCode } : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        type: this.type,
      },
    };
  }
}

const docSlug = (code: string) => code.replace(/_/g, '-');

export const invalidRequest = (message: string, code?: string, param?: string) =>
  new StripeApiError(400, 'invalid_request_error', message, code, param);

export const unknownParameter = (param: string) =>
  invalidRequest(`Received unknown parameter: ${param}`, 'parameter_unknown', param);

export const missingParameter = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, 'parameter_missing', param);

/** `No such customer: 'cus_…'`, as Stripe words a missing object. */
export const noSuch = (what: string, id: string, param = 'id') =>
  new StripeApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);

export const unknownRoute = (method: string, path: string) =>
  new StripeApiError(
    404,
    'invalid_request_error',
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  );
