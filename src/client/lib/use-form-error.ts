import { useState } from 'react';
import { toast } from 'sonner';
import { isClientError } from './errors';

/**
 * A form's one error line (docs/product.md#messages), shown once: a problem with what was typed
 * (the form's own check, or the server refusing the input with 4xx) goes under the fields, and
 * leaves as soon as a field is edited (pass `clear` to the form's onChange); a failure no field
 * can fix (network, server error) is a toast.
 */
export function useFormError() {
  const [error, setError] = useState<string | null>(null);
  return {
    error,
    setError,
    /** A problem with the input: the line under the fields, no toast. */
    fail: (message: string) => setError(message),
    /** A failed request: under the fields when the server refused the input, otherwise a toast. */
    failRequest: (err: unknown, message: string) => {
      if (isClientError(err)) {
        setError(message);
      } else {
        setError(null);
        toast.error(message);
      }
    },
    clear: () => setError(null),
  };
}
