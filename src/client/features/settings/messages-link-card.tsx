import { Link } from '@tanstack/react-router';
import { MailIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** The way into Settings → Messages, which has a page of its own (settings, templates and the log). */
export function MessagesLinkCard() {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Messages</CardTitle>
        <CardDescription>
          Confirmations, reminders and notices by e-mail and SMS: which are sent, their texts, and the delivery log.
        </CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" asChild>
            <Link to="/settings/messages">
              <MailIcon /> Open
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
    </Card>
  );
}
