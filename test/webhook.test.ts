import { ApiObject, Chart, Duration, JsonPatch, Lazy, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import {
  AdmissionResource, AdmissionWarnings, CaBundle, FailurePolicy, KubernetesVersion, LabelSelectorOperator, MatchPolicy, MutatingWebhookConfiguration,
  Operation,
  ReinvocationPolicy, SideEffects, ValidatingWebhookConfiguration, Webhook,
} from '../src';

// A self-signed test certificate (public part only), CN=webhook.hooks.svc, valid until 2126.
export const TEST_CA_PEM = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBjzCCATWgAwIBAgIUMfqcjqImxnvSfMvX9lLKdoVXovwwCgYIKoZIzj0EAwIw',
  'HDEaMBgGA1UEAwwRd2ViaG9vay5ob29rcy5zdmMwIBcNMjYxMjAxMjA0MTA3WhgP',
  'MjEyNjExMDcyMDQxMDdaMBwxGjAYBgNVBAMMEXdlYmhvb2suaG9va3Muc3ZjMFkw',
  'EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDwdsHB6xMf37kJEi3bpW8/60Jy9A8yt4',
  'xZPHePbIwzmW4lzonrzMNWMv5cFsu57kbqNtWuZb1D1mI5Mlv36IhqNTMFEwHQYD',
  'VR0OBBYEFI4SLZmqrGxmNjJJ3nmNODMgjojJMB8GA1UdIwQYMBaAFI4SLZmqrGxm',
  'NjJJ3nmNODMgjojJMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIh',
  'AITdzYOIlbyp0ZPkf4wudZ6PhNIMObDk+SWpz3Z4+8/qAiBA3p6j69UZMIUROI1C',
  'XEaRK5tJbZmschGByuqpnI7V+w==',
  '-----END CERTIFICATE-----',
].join('\n');

const pods = AdmissionResource.PODS.rule(Operation.CREATE);

/** A Service; `namespace: null` for one without (ports are rendered lazily, as cdk8s-plus does). */
function service(scope: Construct, ports: number[] = [443], namespace: string | null = 'hooks', id = 'svc'): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'policy-webhook', ...(namespace ? { namespace } : {}) },
    spec: { selector: { app: 'policy-webhook' }, ports: Lazy.any({ produce: () => ports.map((port) => ({ port, targetPort: 8443 })) }) },
  });
}

const hook = (o: object = {}) => ({ name: 'validate.pods.example.com', rules: [pods], ...o });

describe('Webhook.forService', () => {
  test('writes out the safe defaults, excluding its own namespace and kube-system', () => {
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', { name: 'policy', webhooks: [Webhook.forService(service(chart), hook({ path: '/validate' }))] });
    const [, config] = Testing.synth(chart);
    expect(config).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'policy' },
      webhooks: [{
        name: 'validate.pods.example.com',
        clientConfig: { service: { name: 'policy-webhook', namespace: 'hooks', path: '/validate', port: 443 } },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'], scope: 'Namespaced' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['hooks', 'kube-system'] }] },
        objectSelector: {},
        sideEffects: 'None',
        timeoutSeconds: 5,
        admissionReviewVersions: ['v1'],
      }],
    });
  });

  test('merges the exclusion with the user\'s namespace selector, and can opt out', () => {
    const chart = Testing.chart();
    const selector = { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: LabelSelectorOperator.EXISTS }] };
    const svc = service(chart);
    new ValidatingWebhookConfiguration(chart, 'config', {
      webhooks: [
        Webhook.forService(svc, hook({ namespaceSelector: selector })),
        Webhook.forService(svc, hook({ name: 'all.pods.example.com', namespaceSelector: selector, excludeSystemNamespaces: false, failurePolicy: FailurePolicy.IGNORE })),
      ],
    });
    const webhooks = Testing.synth(chart)[1].webhooks;
    expect(webhooks[0].namespaceSelector).toEqual({
      matchLabels: { env: 'prod' },
      matchExpressions: [{ key: 'tier', operator: 'Exists' }, { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['hooks', 'kube-system'] }],
    });
    expect(webhooks[1].namespaceSelector).toEqual({ matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] });
  });

  test('reads the namespace from the chart, and requires one', () => {
    const chart = new Chart(Testing.app(), 'c', { namespace: 'from-chart' });
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(service(chart, [443], null), hook())] });
    const [svc, config] = Testing.synth(chart);
    expect(svc.kind).toBe('Service');
    expect(config.webhooks[0].clientConfig.service.namespace).toBe('from-chart');
    expect(config.metadata.namespace).toBeUndefined();
    const bare = Testing.chart();
    expect(() => Webhook.forService(service(bare, [443], null), hook())).toThrow(
      'test/svc: Service policy-webhook has no namespace, and a webhook\'s Service reference needs one: set metadata.namespace on the Service, or a namespace on its chart');
  });

  test('needs a Service', () => {
    const chart = Testing.chart();
    const configMap = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'x' } });
    expect(() => Webhook.forService(configMap, hook())).toThrow('test/cm: Webhook.forService needs a Service, not a ConfigMap');
    expect(() => Webhook.forService(new Construct(chart, 'empty'), hook())).toThrow('test/empty: Webhook.forService needs a Service');
  });

  test('works with a cdk8s-plus Service, reading its ports', () => {
    const chart = new Chart(Testing.app(), 'plus', { namespace: 'hooks' });
    const deployment = new kplus.Deployment(chart, 'server', { containers: [{ image: 'registry.example.com/hook:1', portNumber: 9443 }] });
    const svc = deployment.exposeViaService({ name: 'hook', ports: [{ port: 8443, targetPort: 9443 }] });
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(svc, hook())] });
    const manifests = Testing.synth(chart);
    const config = manifests.find((m) => m.kind === 'ValidatingWebhookConfiguration');
    expect(config.webhooks[0].clientConfig.service).toEqual({ name: 'hook', namespace: 'hooks', port: 8443 });
    expect(manifests.map((m) => m.kind).indexOf('ValidatingWebhookConfiguration')).toBeGreaterThan(manifests.map((m) => m.kind).indexOf('Service'));
  });

  test('works with a construct whose default child is the Service', () => {
    const chart = Testing.chart();
    const wrapper = new Construct(chart, 'wrapper');
    service(wrapper, [443], 'hooks', 'Resource');
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(wrapper, hook())] });
    expect(Testing.synth(chart)[1].webhooks[0].clientConfig.service.name).toBe('policy-webhook');
  });

  describe('port', () => {
    test.each([
      [[8443], undefined, 8443],
      [[443, 8080], undefined, 443],
      [[9443, 8080], 8080, 8080],
    ])('Service ports %j, option %j: port %j', (ports, port, expected) => {
      const chart = Testing.chart();
      new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(service(chart, ports), hook({ port }))] });
      expect(Testing.synth(chart)[1].webhooks[0].clientConfig.service.port).toBe(expected);
    });

    test('a Service changed after a clean synthesis in the same tick is checked again', () => {
      const chart = Testing.chart();
      const ports = [443];
      new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(service(chart, ports), hook({ port: 443 }))] });
      Testing.synth(chart);
      ports[0] = 9443; // the webhook's manifest is unchanged; only its check against the Service changes
      expect(() => Testing.synth(chart)).toThrow('port 443 is not exposed by Service hooks/policy-webhook (test/svc), which exposes 9443');
    });

    test('a port the Service does not expose is an error naming both', () => {
      const chart = Testing.chart();
      new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(service(chart, [443]), hook({ port: 8443 }))] });
      expect(() => Testing.synth(chart)).toThrow(
        '[test/config] webhooks[0].clientConfig.service.port: Invalid value: 8443: port 8443 is not exposed by Service hooks/policy-webhook (test/svc), which exposes 443');
    });

    test('with several ports and none of them 443, the port must be chosen', () => {
      const chart = Testing.chart();
      new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(service(chart, [9443, 8080]), hook())] });
      expect(() => Testing.synth(chart)).toThrow(/the default port 443 \(the Service has several ports\) is not exposed .* which exposes 9443, 8080/);
    });

    test('ports added to the Service later count', () => {
      const chart = Testing.chart();
      const ports: number[] = [];
      new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(service(chart, ports), hook())] });
      ports.push(8443);
      expect(Testing.synth(chart)[1].webhooks[0].clientConfig.service.port).toBe(8443);
    });
  });

  test('follows a Service renamed or moved by a JSON patch after the webhook was made', () => {
    const chart = Testing.chart();
    const svc = service(chart);
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forService(svc, hook())] });
    svc.addJsonPatch(JsonPatch.replace('/metadata/name', 'renamed'), JsonPatch.replace('/metadata/namespace', 'moved'));
    const [, config] = Testing.synth(chart);
    expect(config.webhooks[0].clientConfig.service).toEqual({ name: 'renamed', namespace: 'moved', port: 443 });
    expect(config.webhooks[0].namespaceSelector.matchExpressions).toEqual([{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['moved', 'kube-system'] }]);
  });

  test('the configuration is written after the Service', () => {
    const chart = Testing.chart();
    const config = new ValidatingWebhookConfiguration(chart, 'config');
    config.addWebhook(Webhook.forService(service(chart), hook()));
    expect(Testing.synth(chart).map((m) => m.kind)).toEqual(['Service', 'ValidatingWebhookConfiguration']);
  });
});

describe('AdmissionResource.subresource', () => {
  test('names a subresource, or all of them', () => {
    expect(AdmissionResource.PODS.subresource('exec').resource).toBe('pods/exec');
    expect(AdmissionResource.DEPLOYMENTS.subresource('*').rule(Operation.UPDATE).resources).toEqual(['deployments/*']);
    expect(AdmissionResource.PODS.subresource('status').subresource('log').resource).toBe('pods/log');
  });
  test.each([[''], ['a/b']])('%j is an error, since pods/%s would match nothing', (name) => {
    expect(() => AdmissionResource.PODS.subresource(name)).toThrow(`AdmissionResource.subresource: ${JSON.stringify(name)} is not a subresource name (\`pods/${name}\` would match nothing)`);
  });
});

describe('Webhook.forServiceName and Webhook.forUrl', () => {
  test('a Service outside the app, with its port', () => {
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forServiceName('gatekeeper', 'gatekeeper-system', hook({ port: 8443, path: '/v1/admit' }))] });
    const webhook = Testing.synth(chart)[0].webhooks[0];
    expect(webhook.clientConfig).toEqual({ service: { name: 'gatekeeper', namespace: 'gatekeeper-system', path: '/v1/admit', port: 8443 } });
    expect(webhook.namespaceSelector.matchExpressions[0].values).toEqual(['gatekeeper-system', 'kube-system']);
    expect(() => Webhook.forServiceName('', 'x', hook())).toThrow('the Service name and namespace are both required');
  });

  test('an external URL keeps kube-system out, and takes no path or port option', () => {
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forUrl('https://hooks.example.com:8443/validate', hook())] });
    const webhook = Testing.synth(chart)[0].webhooks[0];
    expect(webhook.clientConfig).toEqual({ url: 'https://hooks.example.com:8443/validate' });
    expect(webhook.namespaceSelector.matchExpressions[0].values).toEqual(['kube-system']);
    expect(() => Webhook.forUrl('https://h.example.com', hook({ path: '/x' }))).toThrow("'path' is for Service webhooks; put it in the URL");
    expect(() => Webhook.forUrl('https://h.example.com', hook({ port: 1 }))).toThrow("'port' is for Service webhooks");
  });

  test('URLs are checked with the apiserver\'s rules at synth', () => {
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forUrl('http:///validate?x=1', hook())] });
    expect(() => Testing.synth(chart)).toThrow([
      "  [test/config] webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      '  [test/config] webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
      '  [test/config] webhooks[0].clientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
    ].join('\n'));
  });
});

describe('WebhookOptions', () => {
  test('rule scope defaults to *, written out', () => {
    const chart = Testing.chart();
    const rule = { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: [Operation.CREATE] };
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forServiceName('s', 'n', hook({ rules: [rule] }))] });
    expect(Testing.synth(chart)[0].webhooks[0].rules).toEqual([{ ...rule, operations: ['CREATE'], scope: '*' }]);
  });

  test('every option appears in the output', () => {
    const chart = Testing.chart();
    new MutatingWebhookConfiguration(chart, 'config', {
      metadata: { labels: { team: 'platform' } },
      kubernetesVersion: KubernetesVersion.V1_30,
      webhooks: [Webhook.forServiceName('svc', 'ns', {
        name: 'mutate.pods.example.com',
        path: '/mutate',
        port: 8443,
        rules: [pods],
        namespaceSelector: { matchLabels: { inject: 'enabled' } },
        failurePolicy: FailurePolicy.IGNORE,
        matchPolicy: MatchPolicy.EXACT,
        objectSelector: { matchLabels: { inject: 'true' } },
        matchConditions: [{ name: 'not-kubelet', expression: "!('system:nodes' in request.userInfo.groups)" }],
        sideEffects: SideEffects.NONE_ON_DRY_RUN,
        timeout: Duration.seconds(3),
        admissionReviewVersions: ['v1', 'v1beta1'],
        reinvocationPolicy: ReinvocationPolicy.IF_NEEDED,
      })],
    });
    const [config] = Testing.synth(chart);
    expect(config.metadata).toEqual({ name: expect.any(String), labels: { team: 'platform' } });
    expect(config.webhooks[0]).toEqual({
      name: 'mutate.pods.example.com',
      clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/mutate', port: 8443 } },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'], scope: 'Namespaced' }],
      namespaceSelector: { matchLabels: { inject: 'enabled' }, matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['ns', 'kube-system'] }] },
      failurePolicy: 'Ignore',
      matchPolicy: 'Exact',
      objectSelector: { matchLabels: { inject: 'true' } },
      matchConditions: [{ name: 'not-kubelet', expression: "!('system:nodes' in request.userInfo.groups)" }],
      sideEffects: 'NoneOnDryRun',
      timeoutSeconds: 3,
      admissionReviewVersions: ['v1', 'v1beta1'],
      reinvocationPolicy: 'IfNeeded',
    });
  });

  test('a mutating webhook\'s reinvocationPolicy defaults to Never, written out', () => {
    const chart = Testing.chart();
    new MutatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forServiceName('svc', 'ns', hook({ name: 'm.pods.example.com' }))] });
    expect(Testing.synth(chart)[0].webhooks[0].reinvocationPolicy).toBe('Never');
  });

  test('reinvocationPolicy on a validating configuration is an error', () => {
    const config = new ValidatingWebhookConfiguration(Testing.chart(), 'config');
    expect(() => config.addWebhook(Webhook.forServiceName('svc', 'ns', hook({ reinvocationPolicy: ReinvocationPolicy.NEVER })))).toThrow(
      'test/config: webhook validate.pods.example.com sets reinvocationPolicy, which only mutating webhooks have');
  });

  test('the timeout must be whole seconds, from 1 to 30', () => {
    expect(() => Webhook.forServiceName('s', 'n', hook({ timeout: Duration.millis(1500) }))).toThrow(
      'webhook validate.pods.example.com: timeout 1 second 500 millis is not a whole number of seconds');
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', { webhooks: [Webhook.forServiceName('s', 'n', hook({ timeout: Duration.minutes(1) }))] });
    expect(() => Testing.synth(chart)).toThrow('[test/config] webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be between 1 and 30 seconds');
  });

  test('rules cannot name resources', () => {
    expect(() => Webhook.forServiceName('s', 'n', hook({ rules: [{ ...pods, resourceNames: ['a'] }] }))).toThrow(
      'rules[0] names resources, which webhook rules cannot do');
  });

  test('webhook names: fully qualified, unique in a configuration and across the app', () => {
    const app = Testing.app();
    const a = new Chart(app, 'a');
    const b = new Chart(app, 'b');
    new ValidatingWebhookConfiguration(a, 'one', { webhooks: [Webhook.forServiceName('s', 'n', hook({ name: 'short.name' }))] });
    new ValidatingWebhookConfiguration(a, 'two', { webhooks: [Webhook.forServiceName('s', 'n', hook()), Webhook.forServiceName('s', 'n', hook())] });
    new MutatingWebhookConfiguration(b, 'three', { webhooks: [Webhook.forServiceName('s', 'n', hook())] });
    expect(() => app.synth()).toThrow([
      '  [a/one] webhooks[0].name: Invalid value: "short.name": should be a domain with at least three segments separated by dots',
      '  [a/two] webhooks[1].name: Duplicate value: "validate.pods.example.com"',
      '  [b/three] webhooks[0].name: Duplicate value: "validate.pods.example.com": a/two has a webhook with the same name',
    ].join('\n'));
  });

  test('a configuration removed from the tree no longer holds its webhook names', () => {
    const app = Testing.app();
    const a = new Chart(app, 'a');
    new ValidatingWebhookConfiguration(a, 'one', { webhooks: [Webhook.forServiceName('s', 'n', hook())] });
    app.node.tryRemoveChild('a');
    new ValidatingWebhookConfiguration(new Chart(app, 'b'), 'two', { webhooks: [Webhook.forServiceName('s', 'n', hook())] });
    expect(() => app.synthYaml()).not.toThrow();
  });

  test('configurations are cluster-scoped and reject a namespace', () => {
    expect(() => new ValidatingWebhookConfiguration(Testing.chart(), 'c', { metadata: { namespace: 'x' } })).toThrow('metadata.namespace "x" is not allowed');
  });
});

describe('CaBundle', () => {
  test('fromPem checks the certificates and base64-encodes them once into every webhook', () => {
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', {
      caBundle: CaBundle.fromPem(`\n${TEST_CA_PEM}\n`),
      webhooks: [Webhook.forServiceName('s', 'n', hook()), Webhook.forServiceName('s', 'n', hook({ name: 'second.pods.example.com' }))],
    });
    const [config] = Testing.synth(chart);
    const bundles = config.webhooks.map((w: any) => w.clientConfig.caBundle);
    expect(bundles[0]).toBe(bundles[1]);
    expect(Buffer.from(bundles[0], 'base64').toString()).toBe(`${TEST_CA_PEM}\n`);
    expect(bundles[0]).not.toContain('\n');
    expect(config.metadata.annotations).toBeUndefined();
  });

  test.each([
    [Buffer.from(TEST_CA_PEM).toString('base64'), 'already base64-encoded: pass the PEM text'],
    ['MIIBjzCCATWg', 'the CA bundle is not PEM'],
    [`${TEST_CA_PEM}\n-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----`, 'contains a PRIVATE KEY block: only CA certificates belong in caBundle (never put private keys in manifests)'],
    [TEST_CA_PEM.replace('MIIBjz', 'XXXXXX'), 'certificate 1 of the CA bundle is not a valid X.509 certificate'],
    [`${TEST_CA_PEM}\ntrailing text`, 'text outside its -----BEGIN CERTIFICATE-----'],
  ])('fromPem rejects bad input (%#)', (pem, message) => {
    expect(() => CaBundle.fromPem(pem)).toThrow(message);
  });

  test('fromCertManagerCertificate annotates the configuration and leaves caBundle out', () => {
    const chart = Testing.chart();
    new MutatingWebhookConfiguration(chart, 'config', {
      metadata: { annotations: { 'example.com/owner': 'platform' } },
      caBundle: CaBundle.fromCertManagerCertificate('webhook-cert', 'hooks'),
      webhooks: [Webhook.forServiceName('s', 'hooks', hook())],
    });
    const [config] = Testing.synth(chart);
    expect(config.metadata.annotations).toEqual({ 'example.com/owner': 'platform', 'cert-manager.io/inject-ca-from': 'hooks/webhook-cert' });
    expect(config.webhooks[0].clientConfig.caBundle).toBeUndefined();
    expect(() => CaBundle.fromCertManagerCertificate('a/b', 'hooks')).toThrow('name "a/b" must be a non-empty name without \'/\'');
  });

  test('fromCertManagerSecret uses the secret annotation', () => {
    const chart = Testing.chart();
    new ValidatingWebhookConfiguration(chart, 'config', { caBundle: CaBundle.fromCertManagerSecret('webhook-ca', 'hooks'), webhooks: [Webhook.forServiceName('s', 'hooks', hook())] });
    expect(Testing.synth(chart)[0].metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from-secret': 'hooks/webhook-ca' });
  });

  test('a bundle of several certificates is kept whole', () => {
    const encoded = (CaBundle.fromPem(`${TEST_CA_PEM}\n${TEST_CA_PEM}`) as any)._caBundle;
    expect(Buffer.from(encoded, 'base64').toString()).toBe(`${TEST_CA_PEM}\n${TEST_CA_PEM}\n`);
  });

  test('never two CA sources on one configuration, whichever they are', () => {
    expect(() => new ValidatingWebhookConfiguration(Testing.chart(), 'config', {
      metadata: { annotations: { 'cert-manager.io/inject-ca-from': 'hooks/cert' } },
      caBundle: CaBundle.fromCertManagerSecret('ca', 'hooks'),
    })).toThrow('both the cert-manager.io/inject-ca-from annotation and caBundle are set');
  });

  test('never two CA sources on one configuration', () => {
    expect(() => new ValidatingWebhookConfiguration(Testing.chart(), 'config', {
      metadata: { annotations: { 'cert-manager.io/inject-ca-from': 'hooks/cert' } },
      caBundle: CaBundle.fromPem(TEST_CA_PEM),
    })).toThrow('test/config: both the cert-manager.io/inject-ca-from annotation and caBundle are set; a configuration has one CA source');
  });
});

describe('lockout warnings', () => {
  const everything = { apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: [Operation.CREATE, Operation.UPDATE] };

  function warningsFor(options: object, kind: 'validating' | 'mutating' = 'validating'): string[] {
    const chart = Testing.chart();
    const webhooks = [Webhook.forServiceName('s', 'hooks', { ...hook(), ...options } as any)];
    if (kind === 'validating') new ValidatingWebhookConfiguration(chart, 'config', { webhooks });
    else new MutatingWebhookConfiguration(chart, 'config', { webhooks });
    return AdmissionWarnings.of(chart);
  }

  test('wildcard rules with Fail', () => {
    expect(warningsFor({ rules: [everything] })).toEqual(expect.arrayContaining([
      expect.stringMatching(/^\[test\/config\] webhooks\[0\].rules\[0\]: matches every resource of every API group with failurePolicy Fail/),
    ]));
    expect(warningsFor({ rules: [everything], failurePolicy: FailurePolicy.IGNORE }).some((w) => w.includes('every API group'))).toBe(false);
  });

  test('rules catching leases without an exclusion', () => {
    const leases = { apiGroups: ['coordination.k8s.io'], apiVersions: ['v1'], resources: ['leases'], operations: [Operation.UPDATE] };
    expect(warningsFor({ rules: [leases], excludeSystemNamespaces: false })).toEqual([
      expect.stringMatching(/webhooks\[0\].rules: catches coordination.k8s.io leases/),
    ]);
    const configMaps = { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: [Operation.UPDATE] };
    const guarded = { rules: [leases, configMaps], excludeSystemNamespaces: false, matchConditions: [{ name: 'no-leases', expression: '!(request.resource.resource == "leases")' }] };
    expect(warningsFor(guarded)).toEqual([]);
    expect(warningsFor({ rules: [leases], namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: LabelSelectorOperator.NOT_IN, values: ['kube-node-lease'] }] } })).toEqual([]);
  });

  test('rules catching nodes with Fail', () => {
    const nodes = AdmissionResource.NODES.rule(Operation.UPDATE);
    expect(warningsFor({ rules: [nodes] })).toEqual([expect.stringMatching(/webhooks\[0\].rules: catches nodes with failurePolicy Fail/)]);
    expect(warningsFor({ rules: [nodes], failurePolicy: FailurePolicy.IGNORE })).toEqual([]);
  });

  test('long timeouts on lease-sensitive resources', () => {
    const configMaps = AdmissionResource.CONFIG_MAPS.rule(Operation.UPDATE);
    expect(warningsFor({ rules: [configMaps], timeout: Duration.seconds(10) })).toEqual([
      expect.stringMatching(/webhooks\[0\].timeoutSeconds: 10s is longer than lease renewals wait/),
    ]);
    expect(warningsFor({ rules: [configMaps], timeout: Duration.seconds(5) })).toEqual([]);
  });

  test('rules on the virtual authn/authz resources', () => {
    const reviews = { apiGroups: ['authorization.k8s.io'], apiVersions: ['v1'], resources: ['subjectaccessreviews'], operations: [Operation.CREATE] };
    expect(warningsFor({ rules: [reviews] })).toEqual([expect.stringMatching(/webhooks\[0\].rules\[0\].resources: subjectaccessreviews.authorization.k8s.io is a virtual resource that Kubernetes 1.37 and later never send to admission webhooks/)]);
  });

  test('rules on webhook configurations have no effect', () => {
    const configs = { apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], resources: ['validatingwebhookconfigurations'], operations: [Operation.DELETE] };
    expect(warningsFor({ rules: [configs] })).toEqual([expect.stringMatching(/webhooks are never called for ValidatingWebhookConfiguration/)]);
  });

  test('opting out of the namespace exclusion on a failing-closed pods webhook is warned', () => {
    expect(warningsFor({ excludeSystemNamespaces: false })).toEqual([
      expect.stringMatching(/webhooks\[0\].namespaceSelector: with failurePolicy Fail on pods or workloads, this webhook also receives its own namespace \(hooks\) and kube-system/),
    ]);
    expect(warningsFor({ excludeSystemNamespaces: false, failurePolicy: FailurePolicy.IGNORE })).toEqual([]);
    expect(warningsFor({ excludeSystemNamespaces: false, namespaceSelector: { matchLabels: { 'policy.example.com/enforce': 'true' } } })).toEqual([]);
  });

  test('a webhook without rules is never called, and is warned with the fix', () => {
    expect(warningsFor({ rules: [] })).toEqual([expect.stringMatching(/^\[test\/config\] webhooks\[0\]\.rules: the webhook has no rules, so the apiserver never calls it; give it/)]);
    expect(warningsFor({ rules: undefined })).toHaveLength(1);
  });

  test('a namespaceSelector that selects nothing is warned', () => {
    const contradiction = { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'env', operator: LabelSelectorOperator.NOT_IN, values: ['prod'] }] };
    expect(warningsFor({ namespaceSelector: contradiction })).toEqual([
      '[test/config] webhooks[0].namespaceSelector: selects nothing: every value it allows for label env (prod) it also excludes; drop or correct the contradicting requirement',
    ]);
  });

  test('a namespaceSelector that only the default exclusion empties is an error with the fix', () => {
    const systemOnly = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: LabelSelectorOperator.IN, values: ['kube-system'] }] };
    expect(() => Webhook.forServiceName('s', 'hooks', hook({ namespaceSelector: systemOnly }))).toThrow(
      'webhook validate.pods.example.com: namespaceSelector selects only namespaces the webhook excludes by default (hooks and kube-system, kept away from webhooks '
      + 'so that a failing webhook cannot lock the cluster out); to call the webhook there, set excludeSystemNamespaces: false, and failurePolicy: Ignore');
    expect(() => Webhook.forUrl('https://h.example.com', hook({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }))).toThrow(/excludes by default \(kube-system,/);
    expect(() => Webhook.forServiceName('s', 'hooks', hook({ namespaceSelector: systemOnly, excludeSystemNamespaces: false, failurePolicy: FailurePolicy.IGNORE }))).not.toThrow();
    const alsoOthers = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: LabelSelectorOperator.IN, values: ['kube-system', 'apps'] }] };
    expect(() => Webhook.forServiceName('s', 'hooks', hook({ namespaceSelector: alsoOthers }))).not.toThrow();
  });

  test('a narrow, well-configured webhook has no warnings', () => {
    expect(warningsFor({})).toEqual([]);
    expect(warningsFor({}, 'mutating')).toEqual([]);
  });
});
