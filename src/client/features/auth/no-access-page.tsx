import { ShieldXIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useSignOut } from '@/lib/auth';

/**
 * docs/users.md: a signed-in user whose role may not enter the back-office sees this page with a
 * sign-out button (never a redirect loop between / and /login).
 */
export function NoAccessPage() {
  const { signOut, isPending } = useSignOut();
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-md" data-testid="no-access">
        <CardHeader className="items-center text-center">
          <div className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <ShieldXIcon className="size-6" />
          </div>
          <CardTitle className="text-xl">
            <h1>No access</h1>
          </CardTitle>
          <CardDescription>
            Your account does not have access to the back office. Only managers and administrators can sign in here.
          </CardDescription>
        </CardHeader>
        <CardContent />
        <CardFooter className="justify-center">
          <Button onClick={() => void signOut()} disabled={isPending}>
            {isPending && <Spinner />}
            Sign out
          </Button>
        </CardFooter>
      </Card>
    </main>
  );
}
