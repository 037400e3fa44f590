// @vitest-environment happy-dom
// A chart registers the chart types its series need before it makes its ECharts instance: an
// instance runs the layouts registered when it is made, so a funnel (or a line) registered after
// it failed in its layout ('points'). Bar charts come with ECharts' first chunk; line and funnel
// charts with charts-more.ts, which a chart of bars only never loads.
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Chart } from './Chart.tsx';
import { funnelChartOption } from './Dashboards.tsx';
import { sampleFunnel } from './testing.ts';

const steps = vi.hoisted(() => [] as string[]);

vi.mock('./charts-more.ts', () => {
  steps.push('line and funnel registered');
  return {};
});

vi.mock('./echarts.ts', () => ({
  createChart: () => {
    steps.push('instance made');
    return { setOption: () => steps.push('option set'), on: () => undefined, resize: () => undefined, dispose: () => undefined };
  },
}));

afterEach(cleanup);

const t = (key: string) => key;

describe('Chart', () => {
  it('registers the funnel before it makes the instance that draws it', async () => {
    render(<Chart option={funnelChartOption(sampleFunnel().rows[1], t)} />);
    await waitFor(() => expect(steps).toContain('option set'));
    expect(steps).toEqual(['line and funnel registered', 'instance made', 'option set']);
  });
});
