// Draws the level's history with uPlot (served by Tare from node_modules); the ledger table on
// the same page carries the same figures for anyone who cannot see the chart.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const element = document.getElementById('level-chart');
  if (!element || !window.uPlot) return;
  const { unit, points } = JSON.parse(element.dataset.history);
  if (points.length === 0) {
    element.textContent = 'No entries yet.';
    return;
  }
  // The level holds from its last entry until now: the step runs on to the present.
  const now = Date.now() / 1000;
  const last = points[points.length - 1];
  if (now > last[0]) points.push([now, last[1]]);
  const times = points.map((point) => point[0]);
  const levels = points.map((point) => point[1]);
  // Entries seconds apart would otherwise be spread over years of empty axis.
  const padded = (_chart, min, max) => {
    const pad = Math.max(60, (max - min) * 0.02);
    return [min - pad, max + pad];
  };
  const width = () => Math.max(320, element.clientWidth);
  const chart = new window.uPlot(
    {
      width: width(),
      height: 260,
      series: [
        {},
        {
          label: `Level (${unit})`,
          stroke: '#1f5fbf',
          width: 2,
          fill: 'rgba(31, 95, 191, 0.08)',
          paths: window.uPlot.paths.stepped({ align: 1 }),
        },
      ],
      scales: { x: { time: true, range: padded } },
      axes: [{}, { label: unit }],
    },
    [times, levels],
    element,
  );
  window.addEventListener('resize', () => chart.setSize({ width: width(), height: 260 }));
  element.dataset.drawn = 'true';
});
