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

function needsMoreCharts(option: ChartOption): boolean {
  return ([option.series ?? []].flat() as { type?: string }[]).some((s) => MORE_SERIES.has(s.type ?? ''));
}

/**
 * ECharts, with line and funnel charts registered when `more`. An instance takes the chart types
 * registered when it is made (their layouts run in its own scheduler), so they come first.
 */
async function loadCharts(more: boolean): Promise<typeof import('./echarts.ts')> {
  const [charts] = await Promise.all([import('./echarts.ts'), more ? import('./charts-more.ts') : undefined]);
  return charts;
}

export function Chart({ option, height = 280, testId, onCategoryClick }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef({ option, onCategoryClick });
  latest.current = { option, onCategoryClick };
  // an option that needs line or funnel charts where the instance had none makes a new instance
  const more = needsMoreCharts(option);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadCharts(more)
      .then(({ createChart }) => {
        if (disposed || !box.current) return;
        const instance = createChart(box.current);
        chart.current = instance;
        instance.setOption(latest.current.option);
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
  }, [more]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={box} data-testid={testId} className="zs-chart" style={{ width: '100%', height }} />;
}
