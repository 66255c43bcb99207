import { createContext, useContext, useId, type ReactNode } from 'react';
import {
  FormProvider,
  useController,
  useFormContext,
  useFormState,
  type FieldValues,
  type Path,
  type SubmitHandler,
} from 'react-hook-form';
import { FormError } from '@/components/form-feedback';
import { Label } from '@/components/ui/label';
import { formMessage, messageOwner, type ZodForm } from '@/lib/use-zod-form';
import { cn } from '@/lib/utils';

/**
 * The <form> of a schema-driven form (see useZodForm): gives its fields the form, checks the
 * schema on submit without the browser's own bubbles, and calls `onValid` with the parsed values.
 */
export function ZodFormElement<TValues extends FieldValues, TOut>({
  form,
  onValid,
  idPrefix,
  className,
  children,
}: {
  form: ZodForm<TValues, TOut>;
  /** Prefix of the fields' ids (`enroll` gives `enroll-courseId`); unique on the page by default. */
  idPrefix?: string;
  onValid: SubmitHandler<TOut>;
  className?: string;
  children: ReactNode;
}) {
  const generated = useId().replace(/[^\w-]/g, '');
  return (
    <FormProvider {...form}>
      <FormIdContext value={idPrefix ?? generated}>
        <form onSubmit={(e) => void form.handleSubmit(onValid)(e)} className={className} noValidate>
          {children}
        </form>
      </FormIdContext>
    </FormProvider>
  );
}

/** What a field's control is given: its value and events, its id, and whether it is invalid. */
export interface FieldControlProps {
  id: string;
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema's input type of the field
  value: any;
  onChange: (valueOrEvent: unknown) => void;
  onBlur: () => void;
  ref: (element: HTMLElement | null) => void;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

const FormIdContext = createContext('form');
const fieldId = (formId: string, name: string) => `${formId}-${name.replace(/\W/g, '-')}`;
const messageId = (formId: string, name: string) => `${fieldId(formId, name)}-error`;

/**
 * One labelled field of a schema-driven form: the label, the control `children` renders from the
 * props it is given, an optional hint, and the field's error. A message several fields share is
 * written once, under the first of them; the others point at it (aria-describedby).
 */
export function FormField<TValues extends FieldValues>({
  name,
  id: idOverride,
  label,
  required,
  hint,
  className,
  labelAction,
  children,
}: {
  name: Path<TValues>;
  /** The control's id when a test or a link names it; otherwise the form's prefix and the name. */
  id?: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  className?: string;
  /** Something beside the label, such as a "Forgot password?" link. */
  labelAction?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const { control } = useFormContext<TValues>();
  const { field } = useController({ name, control });
  const { errors } = useFormState({ control });
  const formId = useContext(FormIdContext);
  const id = idOverride ?? fieldId(formId, name);
  const error = messageOwner(errors, name);
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, error ? messageId(formId, error.owner) : undefined].filter(Boolean).join(' ');
  return (
    <div className={cn('grid gap-2', className)}>
      <div className={labelAction ? 'flex items-center justify-between' : undefined}>
        <Label htmlFor={id}>
          {label}
          {required && (
            <span className="text-destructive" aria-hidden="true">
              *
            </span>
          )}
        </Label>
        {labelAction}
      </div>
      {children({
        id,
        name: field.name,
        value: field.value,
        onChange: field.onChange,
        onBlur: field.onBlur,
        ref: field.ref,
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && error.owner === name && (
        <p id={messageId(formId, name)} role="alert" className="text-sm text-destructive">
          {error.message}
        </p>
      )}
    </div>
  );
}

/** The line under the fields for what belongs to no one field (a rule across fields, the server's refusal). */
export function FormMessage({ className }: { className?: string }) {
  const { errors } = useFormState();
  return <FormError error={formMessage(errors)} className={className} />;
}
