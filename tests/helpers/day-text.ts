/**
 * "04 Jan 2027": a calendar day as the screens, messages and PDFs print it, written out here
 * rather than through the product's own formatter so a test of that formatter's output can fail.
 */
export function dayText(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${String(d).padStart(2, '0')} ${months[m - 1]} ${y}`;
}
