// Errors by meaning. None of them ever holds the token: they are built from the method, the path,
// the response status and the response's error body only.

export interface CwpErrorInit {
  method: string;
  path: string;
  status?: number | undefined;
  errorId?: string | undefined;
  details?: unknown;
  /** True when the request may have reached the platform and acted: check before repeating it. */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

export class CwpError extends Error {
  override name = "CwpError";
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  /** The platform's error id, worth quoting to its support. */
  readonly errorId: string | undefined;
  /** For validation errors: field path to a list of messages. */
  readonly details: unknown;
  readonly outcomeUnknown: boolean;

  constructor(message: string, init: CwpErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.errorId = init.errorId;
    this.details = init.details;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  toJSON() {
    return {
      name: this.name,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      errorId: this.errorId,
      details: this.details,
      outcomeUnknown: this.outcomeUnknown,
    };
  }
}

/** 400 from the platform, or a request this client refused to send (`status` undefined). */
export class ValidationError extends CwpError {
  override name = "ValidationError";
}
/** A request that failed the spec's rules before anything was sent. */
export class RequestValidationError extends ValidationError {
  override name = "RequestValidationError";
}
export class AuthenticationError extends CwpError {
  override name = "AuthenticationError";
}
export class PermissionError extends CwpError {
  override name = "PermissionError";
}
export class NotFoundError extends CwpError {
  override name = "NotFoundError";
}
export class ConflictError extends CwpError {
  override name = "ConflictError";
}
export class RateLimitError extends CwpError {
  override name = "RateLimitError";
  /** When the rate-limit window resets (epoch milliseconds), if known. */
  resetAt: number | undefined;
}
export class ServerError extends CwpError {
  override name = "ServerError";
}
/** Any other unexpected HTTP status. */
export class ApiError extends CwpError {
  override name = "ApiError";
}
/** The response did not have the shape the spec gives. */
export class UnexpectedResponseError extends CwpError {
  override name = "UnexpectedResponseError";
}
/**
 * The API URL answers, but not as the API: a web page (an HTML 200, a 404 page), a redirect to a
 * login page, a 405. Nothing was started there: the platform never saw the request.
 */
export class NotTheApiError extends UnexpectedResponseError {
  override name = "NotTheApiError";
}
/** No response: the connection failed, was refused or was reset. */
export class ConnectionError extends CwpError {
  override name = "ConnectionError";
}
/** No response in time (per-attempt timeout or the caller's deadline). */
export class TimeoutError extends CwpError {
  override name = "TimeoutError";
}
/**
 * A list read with `wholeList` that could not be read whole: it repeated a page, handed out a
 * cursor again, or ran past the most pages a walk reads. What needs every item (an export that
 * replaces data) stops instead of going on with part of the list.
 */
export class IncompleteListError extends CwpError {
  override name = "IncompleteListError";
}
/** The caller's AbortSignal fired. */
export class AbortedError extends CwpError {
  override name = "AbortedError";
}

const byStatus: Record<number, typeof CwpError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

export function errorClassForStatus(status: number): typeof CwpError {
  return byStatus[status] ?? (status >= 500 ? ServerError : ApiError);
}
