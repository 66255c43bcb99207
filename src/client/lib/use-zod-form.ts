import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { isClientError } from './errors';

/**
 * A form driven by one of the shared input schemas (src/shared/schemas), so a rule and its message
 * exist once, for the screen and the server alike (docs/architecture.md#forms).
 *
 * Errors show once (docs/product.md#messages): a field's message under the first field that has
 * it (several empty required fields share one "Please fill all the required fields."), a message
 * about the whole form or a refusal from the server (4xx) under the fields, and a failure no field
 * can fix (network, server error) as a toast. Every error leaves as soon as a value is edited.
 */
export type ZodForm<TValues extends FieldValues, TOut> = UseFormReturn<TValues, unknown, TOut> & {
  /** A failed request: the line under the fields when the server refused the input, otherwise a toast. */
  failRequest: (err: unknown, message: string) => void;
  /** A message about the whole form, under the fields. */
  fail: (message: string) => void;
};

export function useZodForm<TValues extends FieldValues, TOut>(
  schema: z.ZodType<TOut, TValues>,
  defaultValues: DefaultValues<TValues>,
): ZodForm<TValues, TOut> {
  const form = useForm<TValues, unknown, TOut>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    // The error stays until the next submit unless a value changes; then it leaves (below).
    reValidateMode: 'onSubmit',
  });
  const { subscribe, clearErrors, setError } = form;
  // A value the user changed (an event, not a reset) clears every error.
  useEffect(
    () => subscribe({ formState: { values: true }, callback: ({ type }) => type && clearErrors() }),
    [subscribe, clearErrors],
  );
  const fail = (message: string) => setError('root.form', { message });
  return Object.assign(form, {
    fail,
    failRequest: (err: unknown, message: string) => {
      if (isClientError(err)) fail(message);
      else {
        clearErrors();
        toast.error(message);
      }
    },
  });
}

/** Every field error's path and message, in the order the schema reported them. */
function fieldMessages(errors: FieldErrors, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'root' || key === '' || !value || typeof value !== 'object') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const message: unknown = get(value, 'message');
    if (typeof message === 'string') out.push([path, message]);
    else out.push(...fieldMessages(value as FieldErrors, path));
  }
  return out;
}

/** The field that shows `name`'s message: the first one with the same message. */
export function messageOwner(errors: FieldErrors, name: string): { message: string; owner: string } | null {
  const all = fieldMessages(errors);
  const mine = all.find(([path]) => path === name);
  if (!mine) return null;
  const owner = all.find(([, message]) => message === mine[1]);
  return { message: mine[1], owner: owner ? owner[0] : name };
}

/** The message about the whole form: a refinement without a field, or the server's refusal. */
export function formMessage(errors: FieldErrors): string | null {
  // The resolver files an issue without a path under the key ''.
  const blank: unknown = Object.entries(errors).find(([key]) => key === '')?.[1];
  const fromSchema: unknown = get(blank, 'message') ?? errors.root?.message;
  if (typeof fromSchema === 'string' && fromSchema) return fromSchema;
  const fromServer = errors.root?.form?.message;
  return fromServer ?? null;
}
