// Instants in the browser's time zone: the server writes each <time data-local> in UTC (the
// text without script) and the exact instant in `datetime`; this rewrites the text as
// `2026-04-01 11:30 CEST` (with seconds where the page marks `data-seconds`) and keeps the UTC
// text on hover.
'use strict';

(() => {
  const formats = new Map();
  const formatOf = (seconds) => {
    if (!formats.has(seconds)) {
      formats.set(
        seconds,
        new Intl.DateTimeFormat(undefined, {
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          ...(seconds ? { second: '2-digit' } : {}),
          hourCycle: 'h23',
          timeZoneName: 'short',
        }),
      );
    }
    return formats.get(seconds);
  };

  /** `2026-04-01 11:30[:05] CEST`, whatever order the browser's locale writes dates in. */
  const local = (instant, seconds) => {
    const part = {};
    for (const { type, value } of formatOf(seconds).formatToParts(instant)) part[type] = value;
    const time = `${part.hour}:${part.minute}${seconds ? `:${part.second}` : ''}`;
    return `${part.year}-${part.month}-${part.day} ${time} ${part.timeZoneName}`;
  };

  const rewrite = () => {
    for (const element of document.querySelectorAll('time[data-local]')) {
      const instant = new Date(element.getAttribute('datetime'));
      if (Number.isNaN(instant.getTime()) || element.dataset.shown) continue;
      element.title = element.textContent;
      element.textContent = local(instant, element.hasAttribute('data-seconds'));
      element.dataset.shown = 'local';
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', rewrite);
  else rewrite();
})();
