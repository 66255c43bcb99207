import { expect, test } from 'vitest';
import { checkCatalogues } from '../../../../tests/helpers/catalogues';
import { emailCatalogues, emailText } from '.';

checkCatalogues('e-mail', emailCatalogues.en, { si: emailCatalogues.si, ta: emailCatalogues.ta });

test('fills in the placeholders and leaves no braces', () => {
  expect(emailText('si')('invitation.valid', { hours: 72 })).toBe('සබැඳිය පැය 72 ක් වලංගු වන අතර එක් වරක් පමණක් ක්‍රියා කරයි.');
  expect(emailText('en')('footer', { organisation: 'Lotus', contact: '' })).toBe(
    'This message was sent by Lotus. If you did not expect it, you can ignore it.',
  );
});
