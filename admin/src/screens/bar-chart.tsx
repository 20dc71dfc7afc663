import { Box } from '@mui/material';

export interface Bar {
  label: string;
  value: number;
}

const WIDTH = 720;
const HEIGHT = 220;
const AXIS = 24;

/**
 * A plain SVG bar chart: no chart library in the bundle. The figures are in the table next to it
 * (the chart is an image with a summary for screen readers; the table is what they read).
 */
export function BarChart({
  bars,
  title,
  format,
}: {
  bars: Bar[];
  title: string;
  format: (n: number) => string;
}) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const step = bars.length ? WIDTH / bars.length : WIDTH;
  const barWidth = Math.max(2, step * 0.7);
  const best = bars.reduce<Bar | null>((top, bar) => (top && top.value >= bar.value ? top : bar), null);
  const summary = best
    ? `${title}: ${bars.length} periods, highest ${format(best.value)} (${best.label})`
    : `${title}: no data`;
  // Every nth label, so they do not overlap.
  const labelEvery = Math.max(1, Math.ceil(bars.length / 12));
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`}
        width="100%"
        style={{ maxWidth: WIDTH }}
      >
        <title>{summary}</title>
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} stroke="#424242" />
        {bars.map((bar, i) => {
          const height = (bar.value / max) * (HEIGHT - 10);
          const x = i * step + (step - barWidth) / 2;
          return (
            <g key={bar.label}>
              <rect x={x} y={HEIGHT - height} width={barWidth} height={height} fill="#1565c0">
                <title>{`${bar.label}: ${format(bar.value)}`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT + 16} fontSize={11} textAnchor="middle" fill="#212121">
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </Box>
  );
}
