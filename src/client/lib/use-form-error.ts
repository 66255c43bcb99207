import { useState } from 'react';
import { toast } from 'sonner';

/** A form's one error line (docs/product.md#messages): shown under the fields and toasted when it is set. */
export function useFormError() {
  const [error, setError] = useState<string | null>(null);
  return {
    error,
    /** Shows the line without a toast. */
    setError,
    fail: (message: string) => {
      setError(message);
      toast.error(message);
    },
    clear: () => setError(null),
  };
}
