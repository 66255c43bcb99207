/**
 * Money travels as a number with at most two decimals (docs/architecture.md) and is stored and computed in
 * integer minor units (cents), so no float error reaches the database or a total.
 */
export function toMinor(amount: number): number {
  // Round half away from zero on the decimal string, not on the binary float.
  const cents = Math.round(Math.abs(amount) * 100 + 1e-7);
  return amount < 0 ? -cents : cents;
}

export function fromMinor(minor: number): number {
  return minor / 100;
}

/** True when the number has no more than two decimals (1.005 is rejected, 1.1 accepted). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Number.isFinite(amount) && Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6;
}

/** docs/money.md: N-1 equal parts rounded down, the remainder on the last; the parts sum to the total. */
export function splitMinor(totalMinor: number, parts: number): number[] {
  if (!Number.isInteger(totalMinor) || totalMinor < 0) throw new Error('total must be whole minor units');
  if (!Number.isInteger(parts) || parts < 1) throw new Error('parts must be a positive integer');
  const base = Math.floor(totalMinor / parts);
  const out = Array.from({ length: parts }, () => base);
  out[parts - 1] = totalMinor - base * (parts - 1);
  return out;
}

/** USD equivalent: local amount divided by the exchange rate, two decimals (docs/product.md#constants). */
export function toForeign(localAmount: number, exchangeRate: number): number {
  if (!(exchangeRate > 0)) return 0;
  return Math.round((localAmount / exchangeRate) * 100) / 100;
}
