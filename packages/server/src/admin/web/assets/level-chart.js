// Draws the level's history with uPlot (served by Tare from node_modules): the exact level and
// the platform's whole units as two step lines, a zero line, time ticks for any span
// (level-chart-ticks.js), a legend naming the series, and the values at the cursor or at the
// point chosen with the arrow keys. The ledger table on the same page carries the same figures.
// A stock item's chart (unitValue null) draws its exact level alone.
import { chooseTimeTicks, tickLabels } from './level-chart-ticks.js';

const HEIGHT = 260;
// Room per tick label on the time axis, in CSS pixels (`10:00:30`, `Mar 12` over `2026`).
const TICK_ROOM = 56;
const number = new Intl.NumberFormat('en', { maximumFractionDigits: 9 });
const timeOf = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

function draw(element) {
  const { unit, unitValue, points } = JSON.parse(element.dataset.history);
  if (points.length === 0) {
    element.textContent = 'No entries yet.';
    return;
  }
  // The level holds from its last entry until now: the steps run on to the present.
  const now = Date.now() / 1000;
  const last = points[points.length - 1];
  if (now > last[0]) points.push([now, last[1], last[2]]);
  const times = points.map((point) => point[0]);
  const levels = points.map((point) => point[1]);
  const wholeUnits = points.map((point) => point[2]);
  const withUnits = unitValue !== null;
  // Whole units drawn in the level's unit (12 × 100 g at 1,200 g), so both lines share the axis.
  const platform = wholeUnits.map((units) => units * unitValue);
  const per = withUnits ? `${number.format(unitValue)} ${unit}` : '';
  const offsetMinutes = -new Date().getTimezoneOffset();

  // Entries seconds apart would otherwise be spread over years of empty axis.
  const paddedTime = (_chart, min, max) => {
    const pad = Math.max(60, (max - min) * 0.02);
    return [min - pad, max + pad];
  };
  // Zero is always on the axis (the zero line), with room above the highest value.
  const withZero = (_chart, min, max) => {
    const low = Math.min(0, min);
    const high = Math.max(0, max);
    const room = (high - low) * 0.1 || 1;
    return [low < 0 ? low - room : 0, high + room];
  };
  const tooltip = document.createElement('div');
  tooltip.className = 'chart-tooltip';
  tooltip.hidden = true;
  tooltip.setAttribute('role', 'status');
  tooltip.setAttribute('aria-live', 'polite');

  const showValues = (index) => {
    if (index === null || index === undefined) {
      tooltip.hidden = true;
      return;
    }
    const when = timeOf.format(new Date(times[index] * 1000));
    const onPlatform = withUnits ? `, ${wholeUnits[index]} × ${per} on the platform` : '';
    tooltip.textContent = `${when}: ${number.format(levels[index])} ${unit} exact${onPlatform}`;
    tooltip.hidden = false;
  };
  const zeroLine = (chart) => {
    const y = Math.round(chart.valToPos(0, 'y', true)) + 0.5;
    const { ctx, bbox } = chart;
    ctx.save();
    ctx.strokeStyle = '#6b7280';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(bbox.left, y);
    ctx.lineTo(bbox.left + bbox.width, y);
    ctx.stroke();
    ctx.restore();
  };

  const width = () => Math.max(200, element.clientWidth);
  const chart = new window.uPlot(
    {
      width: width(),
      height: HEIGHT,
      // Names only: the values at the cursor are in the tooltip, not dashes in the legend.
      legend: { live: false },
      cursor: { y: false },
      series: [
        {},
        {
          label: `Exact level (${unit})`,
          stroke: '#1f5fbf',
          width: 2,
          fill: 'rgba(31, 95, 191, 0.08)',
          paths: window.uPlot.paths.stepped({ align: 1 }),
        },
        ...(withUnits
          ? [
              {
                label: `Platform's whole units (of ${per})`,
                stroke: '#b45309',
                width: 2,
                dash: [6, 4],
                paths: window.uPlot.paths.stepped({ align: 1 }),
              },
            ]
          : []),
      ],
      scales: { x: { time: true, range: paddedTime }, y: { range: withZero } },
      axes: [
        {
          space: TICK_ROOM,
          splits: (chart, _axis, min, max) =>
            chooseTimeTicks(
              min * 1000,
              max * 1000,
              chart.bbox.width / devicePixelRatio / TICK_ROOM,
              offsetMinutes,
            ).ticks.map((tick) => tick / 1000),
          values: (chart, splits) => {
            const [min, max] = [chart.scales.x.min * 1000, chart.scales.x.max * 1000];
            const { step } = chooseTimeTicks(min, max, chart.bbox.width / devicePixelRatio / TICK_ROOM, offsetMinutes);
            const labels = tickLabels(
              splits.map((split) => split * 1000),
              step,
              offsetMinutes,
            );
            // The axis is drawn on the canvas: the element says which ticks it drew (for tests and support).
            element.dataset.timeStep = step;
            element.dataset.timeTicks = labels.map((label) => label.replace('\n', ' ')).join(' | ');
            return labels;
          },
        },
        { label: unit, values: (_chart, splits) => splits.map((split) => number.format(split)) },
      ],
      hooks: { draw: [zeroLine], setCursor: [(chart) => showValues(chart.cursor.idx)] },
    },
    withUnits ? [times, levels, platform] : [times, levels],
    element,
  );
  element.append(tooltip);

  // The arrow keys move the cursor from entry to entry (the chart is focusable).
  let focused = points.length - 1;
  const moveTo = (index) => {
    focused = Math.max(0, Math.min(points.length - 1, index));
    chart.setCursor({ left: chart.valToPos(times[focused], 'x'), top: chart.valToPos(levels[focused], 'y') });
    // Said for this entry: the cursor's own index is ambiguous where two points share an instant
    // (the level before the oldest entry shown, and after it).
    showValues(focused);
  };
  element.tabIndex = 0;
  element.addEventListener('focus', () => moveTo(focused));
  element.addEventListener('keydown', (event) => {
    const to = { ArrowLeft: focused - 1, ArrowRight: focused + 1, Home: 0, End: points.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    moveTo(to);
  });
  window.addEventListener('resize', () => chart.setSize({ width: width(), height: HEIGHT }));
  element.dataset.drawn = 'true';
}

const element = document.getElementById('level-chart');
if (element && window.uPlot) draw(element);
