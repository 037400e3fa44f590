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

export function Chart({ option, height = 280, testId, onCategoryClick }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef({ option, onCategoryClick });
  latest.current = { option, onCategoryClick };

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts.ts')
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
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={box} data-testid={testId} className="zs-chart" style={{ width: '100%', height }} />;
}
