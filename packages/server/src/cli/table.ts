/**
 * Lists for a terminal: columns padded to their widest cell, two spaces apart, the header in
 * capitals; `--json` prints the same rows for machines instead (decision 96).
 */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** A time as a person reads it in a list: `2026-11-26 10:31` in the machine's time zone; `-` for none. */
export function localTime(date: Date | null | undefined): string {
  if (!date) return '-';
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}`
  );
}

/** A time in `--json`: ISO 8601 in UTC, or null. */
export function jsonTime(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}
