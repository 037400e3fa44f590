// Wall-clock time as the platform writes it: 'yyyy-MM-dd HH:mm:ss' in the configured zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function nowText(timeZone: string, date = new Date()): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f.format(date);
}
