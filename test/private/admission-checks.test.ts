import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { AdmissionResource, Operation, ValidatingPolicy } from '../../src';
import * as manifestValidator from '../../src/validation/manifest-validator';

function policy(chart: Chart, id = 'replicas'): ValidatingPolicy {
  return new ValidatingPolicy(chart, id, {
    name: `${id}-limit`,
    resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
    validations: [{ expression: 'object.spec.replicas <= 5' }],
  });
}

/** Counts renderings of ApiObjects (every check and every serialization renders once). */
function countRenders(run: () => void): number {
  const render = jest.spyOn(ApiObject.prototype, 'toJson');
  try {
    run();
    return render.mock.calls.length;
  } finally {
    render.mockRestore();
  }
}

describe('checks at synth', () => {
  test('each object is rendered once per validation pass, and serialized from the last one', () => {
    for (const charts of [1, 5]) {
      const app = Testing.app();
      for (let i = 0; i < charts; i++) policy(new Chart(app, `chart-${i}`), `policy-${i}`);
      // cdk8s validates the whole app once, then again for each chart it serializes.
      expect(countRenders(() => app.synthYaml())).toBe(charts * (charts + 1));
    }
  });

  test('the rendering kept for serialization is dropped at the next tick, fake timers or not', async () => {
    jest.useFakeTimers();
    try {
      const app = Testing.app();
      const chart = new Chart(app, 'one');
      const p = policy(chart);
      new Chart(app, 'two').toJson(); // validates (renders p) without serializing p
      await Promise.resolve();
      p.addValidation({ expression: 'true', message: 'later' });
      expect(p.apiObject.toJson().spec.validations).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  test('an unchanged manifest is validated once, a changed one again', () => {
    const app = Testing.app();
    const p = policy(new Chart(app, 'one'));
    new Chart(app, 'two');
    const validate = jest.spyOn(manifestValidator, 'validateManifest');
    try {
      app.synthYaml();
      app.synthYaml();
      expect(validate).toHaveBeenCalledTimes(1);
      p.addValidation({ expression: 'true', message: 'changed' });
      app.synthYaml();
      expect(validate).toHaveBeenCalledTimes(2);
    } finally {
      validate.mockRestore();
    }
  });

  test('mistakes added after a clean synthesis in the same tick fail the next one, all reported at once', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'admission');
    const a = policy(chart, 'a');
    const b = policy(chart, 'b');
    app.synthYaml();
    a.addValidation({ expression: 'undeclared.spec.replicas <= 5' });
    b.addVariable({ name: 'bad name', expression: '1' });
    let message = '';
    try {
      app.synthYaml();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Validation failed with the following errors:/);
    expect(message).toContain('[admission/a] spec.validations[1].expression');
    expect(message).toContain('[admission/b] spec.variables[0].name');
  });

  test('a change that is still valid is in the next synthesis of the same tick', () => {
    const chart = Testing.chart();
    const p = policy(chart);
    Testing.synth(chart);
    p.addValidation({ expression: 'object.spec.replicas >= 1', message: 'at least one' });
    expect(Testing.synth(chart)[0].spec.validations).toHaveLength(2);
  });

  test('a fix after a failed synthesis in the same tick passes the next one', () => {
    const app = Testing.app();
    const p = new ValidatingPolicy(new Chart(app, 'admission'), 'p', { name: 'p', resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)] });
    expect(() => app.synthYaml()).toThrow('spec.validations: Required value');
    p.addValidation({ expression: 'true' });
    expect(() => app.synthYaml()).not.toThrow();
  });
});
