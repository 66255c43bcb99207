import type { MessageChannel, MessageEvent, MessageLanguage } from '@shared/schemas/messages';

export interface DefaultTemplate {
  event: MessageEvent;
  channel: MessageChannel;
  language: MessageLanguage;
  subject?: string;
  body: string;
}

/*
 * The texts a new installation starts with; admins rewrite them in Settings → Messages.
 * English exists for every event and channel, Sinhala and Tamil for the two reminders and the
 * payment_received e-mail (the receipt a payer asks for); any other language falls back to
 * English. Rules the texts keep:
 * - nothing clinical: no treatment notes, session notes or diagnoses, only where and when;
 * - an English SMS uses only GSM-7 characters (no curly quotes or dashes) and stays near one
 *   160-character segment once filled in; Sinhala and Tamil are UCS-2 whatever they say, so they
 *   are written for clarity first;
 * - placeholders stand on their own in Sinhala and Tamil (a date, a name, an amount followed by a
 *   separate word), since a suffix glued to a value the server fills in would not inflect.
 */
export const defaultTemplates: ReadonlyArray<DefaultTemplate> = [
  // ---------------------------------------------------------------- appointment_booked
  {
    event: 'appointment_booked',
    channel: 'email',
    language: 'en',
    subject: 'Your appointment on {date} at {time}',
    body:
      'Dear {name},\n\n' +
      'Your appointment at {branch} is booked for {date} at {time}.\n\n' +
      'If you cannot come, please let us know as early as you can so that we can offer the time to someone else.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'appointment_booked',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your appointment at {branch} is booked for {date} at {time}. If you cannot come, please let us know.',
  },

  // ---------------------------------------------------------------- appointment_rescheduled
  {
    event: 'appointment_rescheduled',
    channel: 'email',
    language: 'en',
    subject: 'Your appointment has moved to {date} at {time}',
    body:
      'Dear {name},\n\n' +
      'Your appointment at {branch} on {oldDate} at {oldTime} has been moved to {date} at {time}.\n\n' +
      'If the new time does not suit you, please contact us.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'appointment_rescheduled',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your appointment on {oldDate} at {oldTime} has moved to {date} at {time} at {branch}.',
  },

  // ---------------------------------------------------------------- appointment_cancelled
  {
    event: 'appointment_cancelled',
    channel: 'email',
    language: 'en',
    subject: 'Your appointment on {date} is cancelled',
    body:
      'Dear {name},\n\n' +
      'We are sorry to tell you that your appointment at {branch} on {date} at {time} has been cancelled.\n\n' +
      'Please contact us to book a new time.\n\n' +
      '{organisation}',
  },
  {
    event: 'appointment_cancelled',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: sorry, your appointment on {date} at {time} at {branch} is cancelled. Please contact us to book a new time.',
  },

  // ---------------------------------------------------------------- appointment_reminder
  {
    event: 'appointment_reminder',
    channel: 'email',
    language: 'en',
    subject: 'Reminder: your appointment on {date} at {time}',
    body:
      'Dear {name},\n\n' +
      'This is a reminder of your appointment at {branch} on {date} at {time}.\n\n' +
      'If you cannot come or need another time, please let us know as early as you can.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'appointment_reminder',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: reminder of your appointment on {date} at {time} at {branch}. If you cannot come, please let us know.',
  },
  {
    event: 'appointment_reminder',
    channel: 'email',
    language: 'si',
    subject: 'ඔබගේ හමුවීම පිළිබඳ මතක් කිරීමක් - {date}',
    body:
      'ආයුබෝවන් {name},\n\n' +
      '{date} දින {time} ට {branch} ශාඛාවේදී ඔබට හමුවීමක් ඇති බව කාරුණිකව මතක් කරන්නෙමු.\n\n' +
      'පැමිණීමට නොහැකි නම් හෝ වෙනත් වේලාවක් අවශ්‍ය නම්, කරුණාකර හැකි ඉක්මනින් අපට දන්වන්න.\n\n' +
      'ස්තූතියි,\n{organisation}',
  },
  {
    event: 'appointment_reminder',
    channel: 'sms',
    language: 'si',
    body: '{organisation}: මතක් කිරීමකි. ඔබගේ හමුවීම {date} දින {time} ට {branch} ශාඛාවේදී. පැමිණිය නොහැකි නම් කරුණාකර අපට දන්වන්න.',
  },
  {
    event: 'appointment_reminder',
    channel: 'email',
    language: 'ta',
    subject: 'உங்கள் சந்திப்பு பற்றிய நினைவூட்டல் - {date}',
    body:
      'வணக்கம் {name},\n\n' +
      '{date} அன்று {time} மணிக்கு {branch} கிளையில் உங்களுக்கு ஒரு சந்திப்பு உள்ளது என்பதை அன்புடன் நினைவூட்டுகிறோம்.\n\n' +
      'உங்களால் வர இயலாவிட்டால் அல்லது வேறு நேரம் தேவைப்பட்டால், தயவுசெய்து விரைவில் எங்களுக்குத் தெரிவிக்கவும்.\n\n' +
      'நன்றி,\n{organisation}',
  },
  {
    event: 'appointment_reminder',
    channel: 'sms',
    language: 'ta',
    body: '{organisation}: நினைவூட்டல் - உங்கள் சந்திப்பு {date} அன்று {time} மணிக்கு {branch} கிளையில். வர இயலாவிட்டால் தயவுசெய்து எங்களுக்குத் தெரிவிக்கவும்.',
  },

  // ---------------------------------------------------------------- class_cancelled
  {
    event: 'class_cancelled',
    channel: 'email',
    language: 'en',
    subject: '{course}: the class on {date} is cancelled',
    body:
      'Dear {name},\n\n' +
      'The {course} class on {date} at {time} at {branch} has been cancelled.\n\n' +
      'We are sorry for the inconvenience.\n\n' +
      '{organisation}',
  },
  {
    event: 'class_cancelled',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: the {course} class on {date} at {time} is cancelled. Sorry for the inconvenience.',
  },

  // ---------------------------------------------------------------- class_moved
  {
    event: 'class_moved',
    channel: 'email',
    language: 'en',
    subject: '{course}: the class has moved to {date} at {time}',
    body:
      'Dear {name},\n\n' +
      'The {course} class on {oldDate} at {oldTime} has moved to {date} at {time} at {branch}.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'class_moved',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: the {course} class on {oldDate} at {oldTime} has moved to {date} at {time} at {branch}.',
  },

  // ---------------------------------------------------------------- absence
  // It may go to a guardian: {name} is the student, and the text reads right for either reader.
  {
    event: 'absence',
    channel: 'email',
    language: 'en',
    subject: 'Absence from {course} on {date}',
    body:
      'Hello,\n\n' +
      '{name} was marked absent from the {course} class on {date}.\n\n' +
      'If this is not right, or to tell us the reason, please contact us at {branch}.\n\n' +
      '{organisation}',
  },
  {
    event: 'absence',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: {name} was marked absent from {course} on {date}. Please contact us if this is not right.',
  },

  // ---------------------------------------------------------------- installment_due_soon
  {
    event: 'installment_due_soon',
    channel: 'email',
    language: 'en',
    subject: 'Payment reminder: {amount} due on {dueDate}',
    body:
      'Dear {name},\n\n' +
      'A friendly reminder that your installment of {amount} for {course} is due on {dueDate}.\n\n' +
      'If you have already paid, please ignore this message.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'installment_due_soon',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your installment of {amount} is due on {dueDate}. If you have already paid, please ignore this message.',
  },
  {
    event: 'installment_due_soon',
    channel: 'email',
    language: 'si',
    subject: 'වාරික ගෙවීම පිළිබඳ මතක් කිරීමක් - {dueDate}',
    body:
      'ආයුබෝවන් {name},\n\n' +
      'ඔබගේ {amount} ක වාරිකය {dueDate} දිනට ගෙවිය යුතු බව කාරුණිකව මතක් කරන්නෙමු.\n\n' +
      'ඔබ දැනටමත් ගෙවා ඇත්නම්, කරුණාකර මෙම පණිවිඩය නොසලකා හරින්න. ප්‍රශ්නයක් ඇත්නම් අප අමතන්න.\n\n' +
      'ස්තූතියි,\n{organisation}',
  },
  {
    event: 'installment_due_soon',
    channel: 'sms',
    language: 'si',
    body: '{organisation}: ඔබගේ {amount} ක වාරිකය {dueDate} දිනට ගෙවිය යුතුය. දැනටමත් ගෙවා ඇත්නම් මෙම පණිවිඩය නොසලකා හරින්න.',
  },
  {
    event: 'installment_due_soon',
    channel: 'email',
    language: 'ta',
    subject: 'தவணைக் கட்டண நினைவூட்டல் - {dueDate}',
    body:
      'வணக்கம் {name},\n\n' +
      'உங்கள் {amount} தவணைக் கட்டணம் {dueDate} அன்று செலுத்தப்பட வேண்டும் என்பதை அன்புடன் நினைவூட்டுகிறோம்.\n\n' +
      'நீங்கள் ஏற்கனவே செலுத்தியிருந்தால், இச்செய்தியைப் புறக்கணிக்கவும். ஏதேனும் கேள்விகள் இருந்தால் எங்களைத் தொடர்புகொள்ளவும்.\n\n' +
      'நன்றி,\n{organisation}',
  },
  {
    event: 'installment_due_soon',
    channel: 'sms',
    language: 'ta',
    body: '{organisation}: உங்கள் {amount} தவணைக் கட்டணம் {dueDate} அன்று செலுத்தப்பட வேண்டும். ஏற்கனவே செலுத்தியிருந்தால் இச்செய்தியைப் புறக்கணிக்கவும்.',
  },

  // ---------------------------------------------------------------- installment_overdue
  {
    event: 'installment_overdue',
    channel: 'email',
    language: 'en',
    subject: 'Overdue payment: {amount} was due on {dueDate}',
    body:
      'Dear {name},\n\n' +
      'Our records show that your installment of {amount} for {course}, due on {dueDate}, has not been paid yet.\n\n' +
      'Please pay it as soon as you can, or contact us if you think this is a mistake.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'installment_overdue',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your installment of {amount} due on {dueDate} is unpaid. Please pay soon, or contact us if this is a mistake.',
  },

  // ---------------------------------------------------------------- payment_received
  {
    event: 'payment_received',
    channel: 'email',
    language: 'en',
    subject: 'Receipt {receiptNumber}: payment of {amount} received',
    body:
      'Dear {name},\n\n' +
      'Thank you: we received your payment of {amount} on {date}. Your receipt number is {receiptNumber}.\n\n' +
      'Please keep this message for your records.\n\n' +
      '{organisation}',
  },
  {
    event: 'payment_received',
    channel: 'email',
    language: 'si',
    subject: 'රිසිට්පත {receiptNumber}: ඔබගේ ගෙවීම ලැබුණි',
    body:
      'ආයුබෝවන් {name},\n\n' +
      'ස්තූතියි: {date} දින ඔබ කළ {amount} ක ගෙවීම අපට ලැබුණි. ඔබගේ රිසිට්පත් අංකය {receiptNumber} වේ.\n\n' +
      'කරුණාකර මෙම පණිවිඩය ඔබගේ වාර්තා සඳහා තබා ගන්න.\n\n' +
      '{organisation}',
  },
  {
    event: 'payment_received',
    channel: 'email',
    language: 'ta',
    subject: 'ரசீது {receiptNumber}: உங்கள் கட்டணம் பெறப்பட்டது',
    body:
      'வணக்கம் {name},\n\n' +
      'நன்றி: {date} அன்று நீங்கள் செலுத்திய {amount} கட்டணம் எங்களுக்குக் கிடைத்தது. உங்கள் ரசீது எண் {receiptNumber}.\n\n' +
      'தயவுசெய்து இந்தச் செய்தியை உங்கள் பதிவுகளுக்காக வைத்துக்கொள்ளுங்கள்.\n\n' +
      '{organisation}',
  },
  {
    event: 'payment_received',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: we received your payment of {amount} on {date}, receipt {receiptNumber}. Thank you.',
  },

  // ---------------------------------------------------------------- statement
  {
    event: 'statement',
    channel: 'email',
    language: 'en',
    subject: 'Your account statement from {organisation}',
    body:
      'Dear {name},\n\n' +
      'Your account statement follows.\n\n' +
      'If anything in it looks wrong, please contact us.\n\n' +
      'Thank you,\n{organisation}',
  },
  {
    event: 'statement',
    channel: 'sms',
    language: 'en',
    body: '{organisation}: your account statement has been sent to your e-mail. Please contact us with any questions.',
  },
];
