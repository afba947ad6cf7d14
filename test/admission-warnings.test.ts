import { App, Chart, Testing } from 'cdk8s';
import { AdmissionResource, AdmissionWarnings, Operation, ValidatingPolicy, ValidationAction } from '../src';

const everything = { apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: [Operation.CREATE] };

/** A chart whose binding is warned (Deny on a fail-closed policy of every resource). */
function warnedChart(app: App = Testing.app()): Chart {
  const chart = new Chart(app, 'c');
  new ValidatingPolicy(chart, 'policy', { name: 'everything', resourceRules: [everything], validations: [{ expression: 'true' }] })
    .withBinding('binding', { validationActions: [ValidationAction.DENY] });
  return chart;
}

function appWith(context: Record<string, unknown>): App {
  const app = Testing.app();
  for (const [key, value] of Object.entries(context)) app.node.setContext(key, value);
  return app;
}

function printedDuring(f: () => void): string[] {
  const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const warn = jest.spyOn(console, 'warn');
  try {
    f();
    expect(warn).not.toHaveBeenCalled();
    return write.mock.calls.map((c) => String(c[0]));
  } finally {
    write.mockRestore();
    warn.mockRestore();
  }
}

describe('printing warnings', () => {
  test('one line on stderr per warning, without a stack trace (not console.warn)', () => {
    const chart = warnedChart();
    const lines = printedDuring(() => Testing.synth(chart));
    expect(lines).toEqual([expect.stringMatching(/^cdk8s-admission warning: \[c\/binding\] spec\.validationActions: .*\n$/)]);
  });

  test('the printWarnings context turns printing off; the warnings stay readable and can still fail synth', () => {
    const app = appWith({ [AdmissionWarnings.PRINT_CONTEXT]: false });
    const chart = warnedChart(app);
    expect(printedDuring(() => app.synth())).toEqual([]);
    expect(AdmissionWarnings.of(chart)).toHaveLength(1);
    const strict = appWith({ [AdmissionWarnings.PRINT_CONTEXT]: 'false', [AdmissionWarnings.AS_ERRORS_CONTEXT]: true });
    warnedChart(strict);
    expect(() => strict.synth()).toThrow(/\[c\/binding\] spec\.validationActions: /);
  });
});

describe('AdmissionWarnings.acknowledge', () => {
  test('an acknowledged warning is not printed, not listed, and not an error with warningsAsErrors', () => {
    const app = appWith({ [AdmissionWarnings.AS_ERRORS_CONTEXT]: true });
    const chart = warnedChart(app);
    AdmissionWarnings.acknowledge(chart.node.findChild('binding'), 'spec.validationActions', 'a lab cluster: a lockout is acceptable');
    expect(() => app.synth()).not.toThrow();
    expect(AdmissionWarnings.of(chart)).toEqual([]);
    expect(AdmissionWarnings.acknowledged(chart)).toEqual([expect.stringMatching(/^\[c\/binding\] spec\.validationActions: .* \(acknowledged: a lab cluster: a lockout is acceptable\)$/)]);
    expect(printedDuring(() => Testing.synth(chart))).toEqual([]);
  });

  test('on a scope, for the constructs below it; a path covers the paths under it; * covers all', () => {
    const chart = warnedChart();
    AdmissionWarnings.acknowledge(chart, 'spec', 'accepted for the whole chart');
    expect(AdmissionWarnings.of(chart)).toEqual([]);
    const other = warnedChart();
    AdmissionWarnings.acknowledge(other, 'spec.validation', 'a prefix of a name is not a parent path');
    expect(AdmissionWarnings.of(other)).toHaveLength(1);
    AdmissionWarnings.acknowledge(other, '*', 'everything');
    expect(AdmissionWarnings.of(other)).toEqual([]);
  });

  test('other warnings and errors are unaffected', () => {
    const chart = warnedChart();
    AdmissionWarnings.acknowledge(chart, 'metadata', 'not the warned field');
    expect(AdmissionWarnings.of(chart)).toHaveLength(1);
    const broken = Testing.chart();
    new ValidatingPolicy(broken, 'p', { resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], validations: [{ expression: 'object.' }] });
    AdmissionWarnings.acknowledge(broken, '*', 'errors cannot be acknowledged');
    expect(() => Testing.synth(broken)).toThrow(/spec\.validations\[0\]\.expression/);
  });

  test('needs a field path and a reason', () => {
    const chart = warnedChart();
    expect(() => AdmissionWarnings.acknowledge(chart, '', 'r')).toThrow("c: AdmissionWarnings.acknowledge needs the warning's field path");
    expect(() => AdmissionWarnings.acknowledge(chart, 'spec', ' ')).toThrow('c: AdmissionWarnings.acknowledge needs a reason: say why the warning at spec is acceptable here');
  });
});
