import { type QueryFilters, type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import type { ResolverDef, TRPCMutationOptions } from '@trpc/tanstack-react-query';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { QueryView } from '@/components/query-view';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useFormMutation } from '@/lib/use-form-mutation';
import { CheckboxField } from '@/components/checkbox-field';

/**
 * A settings card holding one on/off setting: its title, what turning it on does, and a checkbox
 * that saves as soon as it is changed (and waits while a save is under way).
 */
export function SwitchSettingCard<T>({
  title,
  description,
  label,
  current,
  checked,
  saving,
  onChange,
}: {
  title: string;
  description: ReactNode;
  /** The checkbox's label. */
  label: string;
  current: UseQueryResult<T, unknown>;
  checked: (setting: T) => boolean;
  saving: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryView query={current} placeholder="h-6 w-64">
          {(data) => (
            <CheckboxField label={label} checked={checked(data)} disabled={saving} onCheckedChange={onChange} />
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
}

/**
 * An on/off setting's save, as soon as it is changed: a toast that says which way the setting now
 * is (`saved`), then `refresh` refetches; a refusal's reason, or that it failed, in a toast.
 */
export function useSettingSave<TDef extends ResolverDef>({
  mutationOptions,
  saved,
  refresh,
}: {
  /** `trpc.<domain>.<procedure>.mutationOptions` */
  mutationOptions: TRPCMutationOptions<TDef>;
  saved: (setting: TDef['output']) => string;
  refresh: QueryFilters;
}) {
  const queryClient = useQueryClient();
  return useFormMutation({
    mutationOptions,
    success: saved,
    failure: 'Failed to save the setting. Please try again.',
    after: () => queryClient.invalidateQueries(refresh),
    onError: (message) => toast.error(message),
  });
}
