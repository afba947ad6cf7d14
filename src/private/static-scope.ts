// Which constructs belong to a StaticAdmissionChart: those whose closest chart is one (the
// objects cdk8s would render into that chart). A symbol rather than an import of the chart,
// which imports the constructs' checks.
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { Violation } from '../validation/violation';

const STATIC_CHART = Symbol.for('cdk8s-admission.StaticAdmissionChart');

/** The violations of one object of a static chart that is not this library's construct. */
export interface ForeignViolations {
  readonly construct: IConstruct;
  readonly violations: readonly Violation[];
}

/**
 * Marks a StaticAdmissionChart, with how it checks its objects that are not this library's
 * constructs (which AdmissionWarnings lists with the constructs' own).
 */
export function markStaticChart(chart: Chart, foreignViolations: () => ForeignViolations[]): void {
  Object.defineProperty(chart, STATIC_CHART, { value: foreignViolations, enumerable: false });
}

/** The violations of the objects of a static chart that are not this library's constructs; none for another construct. */
export function foreignViolationsOf(construct: IConstruct): ForeignViolations[] {
  return isStaticChart(construct) ? (construct as unknown as { [STATIC_CHART]: () => ForeignViolations[] })[STATIC_CHART]() : [];
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
