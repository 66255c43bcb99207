import type { MessageChannel, MessageEvent, MessageLanguage } from '@shared/schemas/messages';

/**
 * The texts every event ships with, used until an admin saves their own (Settings → Messages).
 * No clinical detail: a time, a place and a name, never what a session was about.
 */
export const defaultTemplates: ReadonlyArray<{
  event: MessageEvent;
  channel: MessageChannel;
  language: MessageLanguage;
  subject?: string;
  body: string;
}> = [
  {
    event: 'appointment_booked',
    channel: 'email',
    language: 'en',
    subject: 'Your appointment on {date}',
    body: 'Dear {name},\n\nYour appointment for {treatment} is booked for {date} at {time} at {branch}.\n\n{organisation}',
  },
  {
    event: 'appointment_booked',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: appointment booked for {date} {time} at {branch}.',
  },
  {
    event: 'appointment_rescheduled',
    channel: 'email',
    language: 'en',
    subject: 'Your appointment has moved to {date}',
    body: 'Dear {name},\n\nYour appointment on {oldDate} at {oldTime} has moved to {date} at {time} at {branch}.\n\n{organisation}',
  },
  {
    event: 'appointment_rescheduled',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: appointment moved from {oldDate} {oldTime} to {date} {time}.',
  },
  {
    event: 'appointment_cancelled',
    channel: 'email',
    language: 'en',
    subject: 'Your appointment on {date} is cancelled',
    body: 'Dear {name},\n\nYour appointment on {date} at {time} at {branch} is cancelled. Please contact us to book another time.\n\n{organisation}',
  },
  {
    event: 'appointment_cancelled',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your appointment on {date} {time} is cancelled. Please call us to rebook.',
  },
  {
    event: 'appointment_reminder',
    channel: 'email',
    language: 'en',
    subject: 'Reminder: your appointment on {date}',
    body: 'Dear {name},\n\nA reminder of your appointment on {date} at {time} at {branch}.\n\n{organisation}',
  },
  {
    event: 'appointment_reminder',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: reminder of your appointment on {date} at {time}, {branch}.',
  },
  {
    event: 'class_cancelled',
    channel: 'email',
    language: 'en',
    subject: '{course}: the class on {date} is cancelled',
    body: 'Dear {name},\n\nThe {course} class on {date} at {time} is cancelled.\n\n{organisation}',
  },
  {
    event: 'class_cancelled',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: the {course} class on {date} {time} is cancelled.',
  },
  {
    event: 'class_moved',
    channel: 'email',
    language: 'en',
    subject: '{course}: the class has moved to {date}',
    body: 'Dear {name},\n\nThe {course} class on {oldDate} at {oldTime} has moved to {date} at {time}.\n\n{organisation}',
  },
  {
    event: 'class_moved',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: the {course} class moved from {oldDate} {oldTime} to {date} {time}.',
  },
  {
    event: 'absence',
    channel: 'email',
    language: 'en',
    subject: '{course}: absent on {date}',
    body: 'Dear {name},\n\nYou were marked absent from the {course} class on {date} at {time}.\n\n{organisation}',
  },
  {
    event: 'absence',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: {name} was marked absent from {course} on {date}.',
  },
  {
    event: 'installment_due_soon',
    channel: 'email',
    language: 'en',
    subject: 'Installment of {amount} due on {dueDate}',
    body: 'Dear {name},\n\nAn installment of {amount} for {course} is due on {dueDate}.\n\n{organisation}',
  },
  {
    event: 'installment_due_soon',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: {amount} for {course} is due on {dueDate}.',
  },
  {
    event: 'installment_overdue',
    channel: 'email',
    language: 'en',
    subject: 'Installment of {amount} overdue since {dueDate}',
    body: 'Dear {name},\n\nAn installment of {amount} for {course} was due on {dueDate} and is not paid yet.\n\n{organisation}',
  },
  {
    event: 'installment_overdue',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: {amount} for {course} was due on {dueDate} and is unpaid.',
  },
  {
    event: 'payment_received',
    channel: 'email',
    language: 'en',
    subject: 'Payment received: receipt {receiptNumber}',
    body: 'Dear {name},\n\nThank you: we received {amount} on {date} (receipt {receiptNumber}).\n\n{organisation}',
  },
  {
    event: 'payment_received',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: received {amount}, receipt {receiptNumber}. Thank you.',
  },
  {
    event: 'statement',
    channel: 'email',
    language: 'en',
    subject: 'Your statement from {organisation}',
    body: 'Dear {name},\n\nYour account statement is attached.\n\n{organisation}',
  },
  {
    event: 'statement',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your statement was sent to your e-mail.',
  },
];
