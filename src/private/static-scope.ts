// Which constructs belong to a StaticAdmissionChart: those whose closest chart is one (the
// objects cdk8s would render into that chart). A symbol rather than an import of the chart,
// which imports the constructs' checks.
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

const STATIC_CHART = Symbol.for('cdk8s-admission.StaticAdmissionChart');

export function markStaticChart(chart: Chart): void {
  Object.defineProperty(chart, STATIC_CHART, { value: true, enumerable: false });
}

export function isStaticChart(x: unknown): x is Chart {
  return typeof x === 'object' && x !== null && STATIC_CHART in x;
}

/** The StaticAdmissionChart whose objects `construct` renders into, if any. */
export function staticChartOf(construct: IConstruct): Chart | undefined {
  let chart: Chart;
  try {
    chart = Chart.of(construct);
  } catch {
    return undefined;
  }
  return isStaticChart(chart) ? chart : undefined;
}
