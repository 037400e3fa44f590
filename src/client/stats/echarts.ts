// The part of Apache ECharts the dashboards use — bar, line and funnel charts with grid, tooltip and legend, drawn
// as SVG — registered once. Imported only by Chart's dynamic import, so ECharts is a chunk of its
// own that the shell never loads.
import { BarChart, FunnelChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, FunnelChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export type ChartOption = echarts.EChartsCoreOption;
export type ChartInstance = echarts.EChartsType;

export function createChart(element: HTMLElement): ChartInstance {
  return echarts.init(element, undefined, { renderer: 'svg' });
}
