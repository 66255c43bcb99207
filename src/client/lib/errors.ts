import { TRPCClientError } from '@trpc/client';

export type ErrorCode =
  'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'TOO_MANY_REQUESTS' | (string & {});

interface ErrorData {
  code?: string;
  httpStatus?: number;
  details?: unknown;
}

function dataOf(err: unknown): ErrorData | undefined {
  return err instanceof TRPCClientError ? (err.data as ErrorData | undefined) : undefined;
}

/** The tRPC error code (e.g. 'UNAUTHORIZED'), or undefined for a transport failure. */
export function errorCode(err: unknown): ErrorCode | undefined {
  return dataOf(err)?.code;
}

export function httpStatusOf(err: unknown): number | undefined {
  return dataOf(err)?.httpStatus;
}

/** A 4xx answer: the server understood the request and said why it refused it. */
export function isClientError(err: unknown): boolean {
  const status = httpStatusOf(err);
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * The server's message when it explains the refusal (bad input, conflict, not found, throttling,
 * role), otherwise the screen's own fallback text from docs/product.md#messages.
 */
export function explainedMessage(err: unknown, fallback: string): string {
  if (isClientError(err) && errorCode(err) !== 'UNAUTHORIZED' && err instanceof Error && err.message)
    return err.message;
  return fallback;
}

/** The text for 'Error: {message}' load-failure states. */
export function loadErrorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return 'Unknown error';
}
