// Numbers with their units: durations, token counts, money in the configured currency.
const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

export function n(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : integer.format(value);
}

export function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(value < 10 ? 1 : 0)} ms`;
}

export function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value < 120) return `${value} s`;
  if (value < 7200) return `${Math.floor(value / 60)} min`;
  return `${Math.floor(value / 3600)} h`;
}

/** `micros` micro-units of `currency` (an ISO code) as money. */
export function money(micros: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, maximumFractionDigits: 6 }).format(micros / 1e6);
  } catch {
    return `${(micros / 1e6).toFixed(6)} ${currency}`;
  }
}

export function cents(value: number | null, currency: string): string {
  return value === null ? 'uncapped' : money(value * 10_000, currency);
}

export function when(epochSecs: number | null | undefined): string {
  return epochSecs === null || epochSecs === undefined || epochSecs === 0 ? '—' : new Date(epochSecs * 1000).toISOString().replace('.000Z', 'Z');
}
