import { z } from 'zod';
import { PAYMENT_METHODS } from '@shared/payment-kinds';

export const zPaymentMethod = z.enum(PAYMENT_METHODS, {
  error: 'Method must be cash, card, bank_transfer, cheque, online or other.',
});
