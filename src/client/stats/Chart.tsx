// A thin React wrapper around an ECharts instance: loads ECharts on first mount (its own chunk),
// sets the option whenever it changes, follows the container's width, and disposes on unmount.
// A chart that cannot be drawn leaves its space empty: every number is also in a table beside it.
import { useEffect, useRef } from 'react';
import type { ChartInstance, ChartOption } from './echarts.ts';

export interface ChartProps {
  option: ChartOption;
  height?: number;
  testId?: string;
  /** Called with a clicked bar's category index (a project, a contract type). */
  onCategoryClick?: (index: number) => void;
}

/** Starts fetching ECharts' chunk (a page about to draw charts calls it on mount). */
export const preloadCharts = () =>
  import('./echarts.ts').then(
    () => undefined,
    () => undefined,
  );

/** Series types echarts.ts leaves to charts-more.ts. */
const MORE_SERIES = new Set(['line', 'funnel']);

/**
 * Sets the option once the chart types its series need are registered (at once for bar charts),
 * unless a newer option has come meanwhile.
 */
function draw(chart: ChartInstance, option: ChartOption, isLatest: (option: ChartOption) => boolean) {
  const series = [option.series ?? []].flat() as { type?: string }[];
  if (!series.some((s) => MORE_SERIES.has(s.type ?? ''))) return chart.setOption(option, { notMerge: true });
  import('./charts-more.ts')
    .then(() => {
      if (!chart.isDisposed() && isLatest(option)) chart.setOption(option, { notMerge: true });
    })
    .catch((err: unknown) => console.warn('chart not drawn', err));
}

export function Chart({ option, height = 280, testId, onCategoryClick }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef({ option, onCategoryClick });
  latest.current = { option, onCategoryClick };
  const isLatest = (drawn: ChartOption) => drawn === latest.current.option;

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts.ts')
      .then(({ createChart }) => {
        if (disposed || !box.current) return;
        const instance = createChart(box.current);
        chart.current = instance;
        draw(instance, latest.current.option, isLatest);
        instance.on('click', (event) => {
          if (typeof event.dataIndex === 'number') latest.current.onCategoryClick?.(event.dataIndex);
        });
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => instance.resize());
          observer.observe(box.current);
        }
      })
      .catch((err: unknown) => console.warn('chart not drawn', err));
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (chart.current) draw(chart.current, option, isLatest);
  }, [option]);

  return <div ref={box} data-testid={testId} className="zs-chart" style={{ width: '100%', height }} />;
}
