// The part of Apache ECharts the dashboards use, drawn as SVG and registered once. Imported only by
// Chart's dynamic import, so ECharts is a chunk of its own that the shell never loads. Bar charts
// with grid, tooltip and legend are here (the home page's chart); line and funnel charts are a
// chunk of their own (charts-more.ts) that a chart loads when its series need them.
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export type ChartOption = echarts.EChartsCoreOption;
export type ChartInstance = echarts.EChartsType;

export function createChart(element: HTMLElement): ChartInstance {
  return echarts.init(element, undefined, { renderer: 'svg' });
}
