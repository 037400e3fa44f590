// Line and funnel charts, registered with the ECharts of echarts.ts by a chart whose series need them.
import { FunnelChart, LineChart } from 'echarts/charts';
import * as echarts from 'echarts/core';

echarts.use([LineChart, FunnelChart]);
