// The create-time rules of ValidatingWebhookConfiguration and MutatingWebhookConfiguration
// (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateValidatingWebhookConfiguration,
// validateMutatingWebhookConfiguration and the functions they call).
import { errors, expectErrors, expectValid, warnings, webhook, webhookConfiguration } from './fixtures';
import { ManifestValidator, ViolationSeverity } from '../../src';

type WebhookKind = 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
type Expected = Array<[string, string]>;

const KINDS: WebhookKind[] = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];

const SUBDOMAIN = 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters';
const NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.'";
const LABEL_VALUE = 'a valid label must be an empty string or consist of alphanumeric characters';
const DNS1035 = 'a DNS-1035 label must consist of lower case alphanumeric characters';
const URL_FORM = '; desired format: https://host[/path]';

const RULE = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' };

/** `value` without the field `key`: the field is absent, not null. */
function omit(value: object, key: string): any {
  const copy: { [k: string]: unknown } = { ...value };
  delete copy[key];
  return copy;
}

describe.each(KINDS)('%s', (kind) => {
  /** A configuration of one webhook per override. */
  const config = (...overrides: object[]): any => webhookConfiguration(kind, overrides.map((o) => webhook(o)));
  const withMetadata = (metadata: object): any => ({ ...webhookConfiguration(kind), metadata });
  const withRule = (rule: object): any => config({ rules: [{ ...RULE, ...rule }] });
  const withoutField = (key: string): any => webhookConfiguration(kind, [omit(webhook(), key)]);

  test('the fixture webhook is valid', () => {
    expectValid(config());
  });

  describe('metadata', () => {
    test.each<[string, object, Expected]>([
      ['missing name', {}, [['metadata.name', 'Required value: name or generateName is required']]],
      ['empty name', { name: '' }, [['metadata.name', 'Required value: name or generateName is required']]],
      ['uppercase name', { name: 'Demo_Webhooks' }, [['metadata.name', `Invalid value: "Demo_Webhooks": ${SUBDOMAIN}`]]],
      ['name ending in a dot', { name: 'demo.' }, [['metadata.name', `Invalid value: "demo.": ${SUBDOMAIN}`]]],
      ['name of 254 bytes', { name: 'a'.repeat(254) }, [['metadata.name', 'must be no more than 253 bytes']]],
      ['invalid generateName', { generateName: 'Demo-' }, [
        ['metadata.generateName', `Invalid value: "Demo-": ${SUBDOMAIN}`],
        // and the name generated from it
        ['metadata.name', `Invalid value: "Demo-xxxxx": ${SUBDOMAIN}`],
      ]],
      ['invalid label key', { name: 'demo', labels: { 'bad key': 'x' } }, [['metadata.labels', `Invalid value: "bad key": ${NAME_PART}`]]],
      ['invalid label value', { name: 'demo', labels: { app: '-x' } }, [['metadata.labels', `Invalid value: "-x": ${LABEL_VALUE}`]]],
      ['annotations over 256 KiB', { name: 'demo', annotations: { big: 'x'.repeat(256 * 1024) } },
        [['metadata.annotations', 'must have at most 262144 bytes']]],
      ['invalid annotation key', { name: 'demo', annotations: { 'a/b/c': 'x' } }, [['metadata.annotations', "with an optional DNS subdomain prefix and '/'"]]],
    ])('rejects %s', (_, metadata, expected) => {
      expectErrors(withMetadata(metadata), expected);
    });

    test('rejects a manifest without metadata', () => {
      expectErrors(omit(webhookConfiguration(kind), 'metadata'), [['metadata.name', 'Required value: name or generateName is required']]);
    });

    test.each<[string, object]>([
      ['a name of 253 bytes', { name: 'a'.repeat(253) }],
      ['a dotted name', { name: 'webhooks.example.com' }],
      ['generateName with a trailing dash instead of a name', { generateName: 'demo-' }],
      ['labels and annotations', { name: 'demo', labels: { 'example.com/app': 'demo', 'empty': '' }, annotations: { 'example.com/Note': 'anything at all' } }],
    ])('accepts %s', (_, metadata) => {
      expectValid(withMetadata(metadata));
    });

    test('metadata.namespace is dropped by the apiserver: a warning, not an error', () => {
      const manifest = withMetadata({ name: 'demo', namespace: 'default' });
      expectValid(manifest);
      expect(warnings(manifest).map((w) => w.path)).toContain('metadata.namespace');
    });

    test.each<[string, any]>([
      ['an empty webhooks list', []],
      ['no webhooks field', undefined],
    ])('accepts %s', (_, webhooks) => {
      const manifest = webhookConfiguration(kind);
      expectValid(webhooks === undefined ? omit(manifest, 'webhooks') : { ...manifest, webhooks });
    });
  });

  describe('webhook name', () => {
    test.each<[string, object, Expected]>([
      ['missing', omit(webhook(), 'name'), [['webhooks[0].name', 'Required value']]],
      ['empty', webhook({ name: '' }), [['webhooks[0].name', 'Required value']]],
      ['with two segments', webhook({ name: 'k8s.io' }), [['webhooks[0].name', 'Invalid value: "k8s.io": should be a domain with at least three segments separated by dots']]],
      ['with one segment', webhook({ name: 'webhook' }), [['webhooks[0].name', 'should be a domain with at least three segments separated by dots']]],
      ['with uppercase letters', webhook({ name: 'Check.Example.com' }), [['webhooks[0].name', `Invalid value: "Check.Example.com": ${SUBDOMAIN}`]]],
      ['with a trailing dot', webhook({ name: 'check.example.com.' }), [['webhooks[0].name', `Invalid value: "check.example.com.": ${SUBDOMAIN}`]]],
      ['with an underscore', webhook({ name: 'check_it.example.com' }), [['webhooks[0].name', SUBDOMAIN]]],
      ['longer than 253 bytes', webhook({ name: `${'a'.repeat(250)}.b.c` }), [['webhooks[0].name', 'must be no more than 253 bytes']]],
    ])('rejects a name %s', (_, hook, expected) => {
      expectErrors(webhookConfiguration(kind, [hook]), expected);
    });

    test.each(['a.b.c', 'check.example.com', 'v1.check.webhooks.example.com', `${'a'.repeat(249)}.b.c`])('accepts %s', (name) => {
      expectValid(config({ name }));
    });

    test('reports the index of the webhook', () => {
      expectErrors(config({ name: 'one.example.com' }, { name: 'two' }), [['webhooks[1].name', 'at least three segments']]);
    });
  });

  describe('webhook names are unique within a configuration', () => {
    test('rejects a name used twice', () => {
      expectErrors(config({}, {}), [['webhooks[1].name', 'Duplicate value: "check.example.com"']]);
    });

    test('reports every later repetition', () => {
      expectErrors(config({}, { name: 'other.example.com' }, {}, {}), [
        ['webhooks[2].name', 'Duplicate value: "check.example.com"'],
        ['webhooks[3].name', 'Duplicate value: "check.example.com"'],
      ]);
    });

    test('empty names are required, not duplicates', () => {
      expectErrors(config({ name: '' }, { name: '' }), [
        ['webhooks[0].name', 'Required value'],
        ['webhooks[1].name', 'Required value'],
      ]);
    });

    test('accepts the same webhook name in two configurations', () => {
      const first = webhookConfiguration(kind);
      const second = { ...webhookConfiguration(kind), metadata: { name: 'other-webhooks' } };
      expect(ManifestValidator.validateAll([first, second]).filter((v) => v.severity === ViolationSeverity.ERROR)).toEqual([]);
    });
  });

  describe('rules', () => {
    const p = 'webhooks[0].rules[0]';

    test.each<[string, object, Expected]>([
      // operations
      ['no operations', { operations: [] }, [[`${p}.operations`, 'Required value']]],
      ['an unknown operation', { operations: ['PATCH'] },
        [[`${p}.operations[0]`, 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"']]],
      ['a lowercase operation', { operations: ['CREATE', 'update'] }, [[`${p}.operations[1]`, 'Unsupported value: "update"']]],
      ['an empty operation', { operations: [''] }, [[`${p}.operations[0]`, 'Unsupported value: ""']]],
      ["'*' with another operation", { operations: ['*', 'CREATE'] },
        [[`${p}.operations`, "if '*' is present, must not specify other operations"]]],
      ["another operation with '*'", { operations: ['DELETE', '*'] },
        [[`${p}.operations`, "if '*' is present, must not specify other operations"]]],
      // apiGroups
      ['no apiGroups', { apiGroups: [] }, [[`${p}.apiGroups`, 'Required value']]],
      ["'*' with another API group", { apiGroups: ['*', 'apps'] }, [[`${p}.apiGroups`, "if '*' is present, must not specify other API groups"]]],
      ["another API group with '*'", { apiGroups: ['apps', '*'] }, [[`${p}.apiGroups`, "if '*' is present, must not specify other API groups"]]],
      // apiVersions
      ['no apiVersions', { apiVersions: [] }, [[`${p}.apiVersions`, 'Required value']]],
      ['an empty API version', { apiVersions: ['v1', ''] }, [[`${p}.apiVersions[1]`, 'Required value']]],
      ["'*' with another API version", { apiVersions: ['*', 'v1'] }, [[`${p}.apiVersions`, "if '*' is present, must not specify other API versions"]]],
      ["another API version with '*'", { apiVersions: ['v1', '*'] }, [[`${p}.apiVersions`, "if '*' is present, must not specify other API versions"]]],
      // resources
      ['no resources', { resources: [] }, [[`${p}.resources`, 'Required value']]],
      ['an empty resource', { resources: ['pods', ''] }, [[`${p}.resources[1]`, 'Required value']]],
      ["'*/*' with another resource", { resources: ['*/*', 'pods/log'] }, [[`${p}.resources`, "if '*/*' is present, must not specify other resources"]]],
      ["another resource with '*/*'", { resources: ['pods/log', '*/*'] }, [[`${p}.resources`, "if '*/*' is present, must not specify other resources"]]],
      ["'*' with a bare resource", { resources: ['*', 'pods'] },
        [[`${p}.resources`, "if '*' is present, must not specify other resources without subresources"]]],
      ["'x/*' before 'x/y'", { resources: ['a/*', 'a/x'] }, [[`${p}.resources[1]`, 'Invalid value: "a/x": if \'a/*\' is present, must not specify a/x']]],
      ["'*/y' before 'x/y'", { resources: ['*/status', 'pods/status'] },
        [[`${p}.resources[1]`, 'Invalid value: "pods/status": if \'*/status\' is present, must not specify pods/status']]],
      // scope
      ['an unknown scope', { scope: 'x' }, [[`${p}.scope`, 'Unsupported value: "x": supported values: "*", "Cluster", "Namespaced"']]],
      ['a lowercase scope', { scope: 'cluster' }, [[`${p}.scope`, 'Unsupported value: "cluster"']]],
      ['an empty scope', { scope: '' }, [[`${p}.scope`, 'Unsupported value: ""']]],
    ])('rejects %s', (_, rule, expected) => {
      expectErrors(withRule(rule), expected);
    });

    // The apiserver checks these in list order: the same entries in the other order are errors.
    test.each<[string, object, string, string]>([
      ["a bare resource before '*'", { resources: ['pods', '*'] }, `${p}.resources[0]`, "'pods' is already matched by '*'"],
      ["'x/y' before 'x/*'", { resources: ['a/x', 'a/*'] }, `${p}.resources[0]`, "'a/x' is already matched by 'a/*'"],
      ["'x/y' before '*/y'", { resources: ['pods/status', '*/status'] }, `${p}.resources[0]`, "'pods/status' is already matched by '*/status'"],
    ])('accepts %s, as the apiserver does, with a warning', (_, rule, path, fragment) => {
      const manifest = withRule(rule);
      expectErrors(manifest, []);
      expect(warnings(manifest)).toContainEqual(expect.objectContaining({ path, message: expect.stringContaining(fragment) }));
    });

    test('rejects a rule without operations', () => {
      expectErrors(config({ rules: [omit(RULE, 'operations')] }), [[`${p}.operations`, 'Required value']]);
    });

    test('accepts a rule without scope', () => {
      expectValid(config({ rules: [omit(RULE, 'scope')] }));
    });

    test('collects the errors of every list of a rule', () => {
      expectErrors(config({ rules: [{}] }), [
        [`${p}.operations`, 'Required value'],
        [`${p}.apiGroups`, 'Required value'],
        [`${p}.apiVersions`, 'Required value'],
        [`${p}.resources`, 'Required value'],
      ]);
    });

    test('reports the index of the rule', () => {
      expectErrors(config({ rules: [RULE, { ...RULE, operations: ['PATCH'] }] }), [['webhooks[0].rules[1].operations[0]', 'Unsupported value: "PATCH"']]);
    });

    test.each<[string, object]>([
      ["'*' alone", { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
      ["'*/*' alone", { resources: ['*/*'] }],
      ['every operation', { operations: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] }],
      ['any API group string', { apiGroups: ['', 'apps', 'Not A Group!'] }],
      ['any API version string', { apiVersions: ['v1', 'V2_beta'] }],
      ["'x/*' with bare 'x'", { resources: ['pods', 'pods/*'] }],
      ["bare 'x' after 'x/*'", { resources: ['pods/*', 'pods'] }],
      ["'*' with 'x/y'", { resources: ['*', 'pods/log'] }],
      ["'*' with 'x/*' and '*/y'", { resources: ['*', 'pods/*', '*/status'] }],
      ["'x/*' with 'y/z'", { resources: ['pods/*', 'deployments/scale'] }],
      ['subresources', { resources: ['pods', 'pods/status', 'pods/exec'] }],
      ['scope Cluster', { scope: 'Cluster' }],
      ["scope '*'", { scope: '*' }],
    ])('accepts %s', (_, rule) => {
      expectValid(withRule(rule));
    });

    test.each<[string, object]>([
      ['no rules field', omit(webhook(), 'rules')],
      ['an empty rules list', webhook({ rules: [] })],
    ])('accepts a webhook with %s', (_, hook) => {
      expectValid(webhookConfiguration(kind, [hook]));
    });
  });

  describe('failurePolicy', () => {
    test.each(['other', 'fail', ''])('rejects %j', (value) => {
      expectErrors(config({ failurePolicy: value }),
        [['webhooks[0].failurePolicy', `Unsupported value: ${JSON.stringify(value)}: supported values: "Fail", "Ignore"`]]);
    });

    test.each(['Fail', 'Ignore'])('accepts %s', (value) => {
      expectValid(config({ failurePolicy: value }));
    });

    test('is optional', () => {
      expectValid(withoutField('failurePolicy'));
    });
  });

  describe('matchPolicy', () => {
    test.each(['other', 'exact'])('rejects %j', (value) => {
      expectErrors(config({ matchPolicy: value }),
        [['webhooks[0].matchPolicy', `Unsupported value: ${JSON.stringify(value)}: supported values: "Equivalent", "Exact"`]]);
    });

    test.each(['Exact', 'Equivalent'])('accepts %s', (value) => {
      expectValid(config({ matchPolicy: value }));
    });

    test('is optional', () => {
      expectValid(withoutField('matchPolicy'));
    });
  });

  describe('sideEffects', () => {
    test('is required', () => {
      expectErrors(withoutField('sideEffects'), [['webhooks[0].sideEffects', 'Required value: must specify one of None, NoneOnDryRun']]);
    });

    test.each(['Unknown', 'Some', 'none', ''])('rejects %j on create', (value) => {
      expectErrors(config({ sideEffects: value }),
        [['webhooks[0].sideEffects', `Unsupported value: ${JSON.stringify(value)}: supported values: "None", "NoneOnDryRun"`]]);
    });

    test.each(['None', 'NoneOnDryRun'])('accepts %s', (value) => {
      expectValid(config({ sideEffects: value }));
    });
  });

  describe('timeoutSeconds', () => {
    test.each([0, 31, -1, 600])('rejects %d', (value) => {
      expectErrors(config({ timeoutSeconds: value }),
        [['webhooks[0].timeoutSeconds', `Invalid value: ${value}: the timeout value must be between 1 and 30 seconds`]]);
    });

    test.each([1, 10, 30])('accepts %d', (value) => {
      expectValid(config({ timeoutSeconds: value }));
    });

    test('is optional', () => {
      expectValid(withoutField('timeoutSeconds'));
    });
  });

  describe.each(['namespaceSelector', 'objectSelector'])('%s', (field) => {
    const p = `webhooks[0].${field}`;
    const withSelector = (selector: object): any => config({ [field]: selector });
    const expression = (requirement: object): object => ({ matchExpressions: [{ key: 'env', ...requirement }] });

    test.each<[string, object, Expected]>([
      ['an unknown operator', expression({ operator: 'Equals', values: ['prod'] }),
        [[`${p}.matchExpressions[0].operator`, 'Invalid value: "Equals": not a valid selector operator']]],
      ['an empty operator', expression({ operator: '' }),
        [[`${p}.matchExpressions[0].operator`, 'Invalid value: "": not a valid selector operator']]],
      ['a lowercase operator', expression({ operator: 'in', values: ['prod'] }),
        [[`${p}.matchExpressions[0].operator`, 'Invalid value: "in": not a valid selector operator']]],
      ['In without values', expression({ operator: 'In' }),
        [[`${p}.matchExpressions[0].values`, "Required value: must be specified when `operator` is 'In' or 'NotIn'"]]],
      ['NotIn with an empty values list', expression({ operator: 'NotIn', values: [] }),
        [[`${p}.matchExpressions[0].values`, "Required value: must be specified when `operator` is 'In' or 'NotIn'"]]],
      ['Exists with values', expression({ operator: 'Exists', values: ['prod'] }),
        [[`${p}.matchExpressions[0].values`, "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"]]],
      ['DoesNotExist with values', expression({ operator: 'DoesNotExist', values: ['prod'] }),
        [[`${p}.matchExpressions[0].values`, "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"]]],
      ['an invalid key', expression({ key: 'bad key', operator: 'Exists' }),
        [[`${p}.matchExpressions[0].key`, `Invalid value: "bad key": ${NAME_PART}`]]],
      ['an empty key', expression({ key: '', operator: 'Exists' }), [
        [`${p}.matchExpressions[0].key`, 'Invalid value: "": name part must be non-empty'],
        [`${p}.matchExpressions[0].key`, `Invalid value: "": ${NAME_PART}`],
      ]],
      ['a key with an invalid prefix', expression({ key: 'Example.com/env', operator: 'Exists' }),
        [[`${p}.matchExpressions[0].key`, `Invalid value: "Example.com/env": prefix part ${SUBDOMAIN}`]]],
      ['an invalid value', expression({ operator: 'In', values: ['prod', '-bad'] }),
        [[`${p}.matchExpressions[0].values[1]`, `Invalid value: "-bad": ${LABEL_VALUE}`]]],
      ['a value longer than 63 characters', expression({ operator: 'NotIn', values: ['a'.repeat(64)] }),
        [[`${p}.matchExpressions[0].values[0]`, 'must be no more than 63 characters']]],
      ['an invalid matchLabels key', { matchLabels: { 'bad key': 'x' } }, [[`${p}.matchLabels`, `Invalid value: "bad key": ${NAME_PART}`]]],
      ['an invalid matchLabels value', { matchLabels: { env: 'prod!' } }, [[`${p}.matchLabels`, `Invalid value: "prod!": ${LABEL_VALUE}`]]],
    ])('rejects %s', (_, selector, expected) => {
      expectErrors(withSelector(selector), expected);
    });

    test('reports the index of the requirement', () => {
      expectErrors(withSelector({
        matchExpressions: [
          { key: 'env', operator: 'Exists' },
          { key: 'tier', operator: 'Near', values: ['x'] },
        ],
      }), [[`${p}.matchExpressions[1].operator`, 'not a valid selector operator']]);
    });

    test.each<[string, object]>([
      ['an empty selector', {}],
      ['Exists without values', expression({ operator: 'Exists' })],
      ['DoesNotExist with an empty values list', expression({ operator: 'DoesNotExist', values: [] })],
      ['In with values', expression({ operator: 'In', values: ['prod', 'staging'] })],
      ['NotIn with a prefixed key', { matchExpressions: [{ key: 'example.com/env', operator: 'NotIn', values: ['dev'] }] }],
      ['matchLabels with an empty value', { matchLabels: { 'example.com/env': '', 'tier': 'web_1.a' } }],
    ])('accepts %s', (_, selector) => {
      expectValid(withSelector(selector));
    });

    test('is optional', () => {
      expectValid(withoutField(field));
    });
  });

  describe('clientConfig has exactly one of url and service', () => {
    const p = 'webhooks[0].clientConfig';

    test.each<[string, object]>([
      ['both url and service', { url: 'https://hook.example.com/validate', service: { name: 'hook', namespace: 'hooks' } }],
      ['neither url nor service', {}],
      ['only a caBundle', { caBundle: 'Y2E=' }],
    ])('rejects %s', (_, clientConfig) => {
      expectErrors(config({ clientConfig }), [[p, 'Required value: exactly one of url or service is required']]);
    });

    test('rejects a webhook without clientConfig', () => {
      expectErrors(withoutField('clientConfig'), [[p, 'Required value: exactly one of url or service is required']]);
    });

    test('accepts a url', () => {
      expectValid(config({ clientConfig: { url: 'https://hook.example.com/validate' } }));
    });
  });

  describe('clientConfig.url (Go net/url semantics)', () => {
    const p = 'webhooks[0].clientConfig.url';
    const withUrl = (url: string): any => config({ clientConfig: { url } });

    test.each<[string, Expected]>([
      ['http://hook.example.com/validate', [[p, `Invalid value: "http": 'https' is the only allowed URL scheme${URL_FORM}`]]],
      ['ftp://hook.example.com/', [[p, 'Invalid value: "ftp": \'https\' is the only allowed URL scheme']]],
      ['https:///validate', [[p, `Invalid value: "": host must be specified${URL_FORM}`]]],
      ['https:hook.example.com', [[p, 'Invalid value: "": host must be specified']]],
      ['hook.example.com/validate', [
        [p, 'Invalid value: "": \'https\' is the only allowed URL scheme'],
        [p, 'Invalid value: "": host must be specified'],
      ]],
      ['', [
        [p, 'Invalid value: "": \'https\' is the only allowed URL scheme'],
        [p, 'Invalid value: "": host must be specified'],
      ]],
      ['https://admin@hook.example.com/validate', [[p, 'Invalid value: "admin": user information is not permitted in the URL']]],
      ['https://admin:secret@hook.example.com/', [[p, 'Invalid value: "admin:secret": user information is not permitted in the URL']]],
      ['https://hook.example.com/validate#top', [[p, 'Invalid value: "top": fragments are not permitted in the URL']]],
      ['https://hook.example.com/validate?timeout=5s', [[p, 'Invalid value: "timeout=5s": query parameters are not permitted in the URL']]],
      ['http://u@hook.example.com/p?q=1#f', [
        [p, '\'https\' is the only allowed URL scheme'],
        [p, 'Invalid value: "u": user information is not permitted'],
        [p, 'Invalid value: "f": fragments are not permitted'],
        [p, 'Invalid value: "q=1": query parameters are not permitted'],
      ]],
      ['https://exa mple.com/validate',
        [[p, `Required value: url must be a valid URL: parse "https://exa mple.com/validate": invalid character " " in host name${URL_FORM}`]]],
      ['https://hook.example.com:port/', [[p, 'Required value: url must be a valid URL: parse "https://hook.example.com:port/": invalid port ":port" after host']]],
      ['https://hook.example.com/%zz', [[p, 'Required value: url must be a valid URL: parse "https://hook.example.com/%zz": invalid URL escape "%zz"']]],
      ['://hook.example.com/', [[p, 'Required value: url must be a valid URL: parse "://hook.example.com/": missing protocol scheme']]],
    ])('rejects %j', (url, expected) => {
      expectErrors(withUrl(url), expected);
    });

    test.each([
      'https://hook.example.com',
      'https://hook.example.com/',
      'HTTPS://hook.example.com/validate',
      'https://10.0.0.1:8443/validate',
      'https://[::1]:8443/validate',
      'https://hook.example.com:443/any/Path_At/all//',
      'https://hook.example.com/p?',
      'https://hook.example.com/p#',
    ])('accepts %s', (url) => {
      expectValid(withUrl(url));
    });
  });

  describe('clientConfig.service', () => {
    const p = 'webhooks[0].clientConfig.service';
    const withService = (service: object): any => config({ clientConfig: { service } });
    const SERVICE = { name: 'hook', namespace: 'hooks' };

    test.each<[string, object, Expected]>([
      // The apiserver swaps these two paths (kubernetes#141353); this library reports each at its own.
      ['a missing name', { namespace: 'hooks' }, [[`${p}.name`, 'Required value']]],
      ['an empty name', { name: '', namespace: 'hooks' }, [[`${p}.name`, 'Required value']]],
      ['a missing namespace', { name: 'hook' }, [[`${p}.namespace`, 'Required value']]],
      ['an empty namespace', { name: 'hook', namespace: '' }, [[`${p}.namespace`, 'Required value']]],
      ['port 0', { ...SERVICE, port: 0 }, [[`${p}.port`, 'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive']]],
      ['port 65536', { ...SERVICE, port: 65536 }, [[`${p}.port`, 'Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive']]],
      ['path //', { ...SERVICE, path: '//' }, [[`${p}.path`, 'Invalid value: "//": segment[0] may not be empty']]],
      ['a path without a leading slash', { ...SERVICE, path: 'validate' }, [[`${p}.path`, 'Invalid value: "validate": must start with a \'/\'']]],
      ['an empty segment', { ...SERVICE, path: '/a//b' }, [[`${p}.path`, 'Invalid value: "/a//b": segment[1] may not be empty']]],
      ['two trailing slashes', { ...SERVICE, path: '/validate//' }, [[`${p}.path`, 'segment[1] may not be empty']]],
      ['an invalid segment', { ...SERVICE, path: '/apis/foo.bar/v1alpha1/--bad' },
        [[`${p}.path`, `Invalid value: "/apis/foo.bar/v1alpha1/--bad": segment[3]: ${SUBDOMAIN}`]]],
      ['an uppercase segment', { ...SERVICE, path: '/Validate' }, [[`${p}.path`, `segment[0]: ${SUBDOMAIN}`]]],
      ['an underscore in a segment', { ...SERVICE, path: '/validate/my_hook' }, [[`${p}.path`, `segment[1]: ${SUBDOMAIN}`]]],
    ])('rejects %s', (_, service, expected) => {
      expectErrors(withService(service), expected);
    });

    test('reports a missing name and namespace together', () => {
      expectErrors(withService({}), [[`${p}.name`, 'Required value'], [`${p}.namespace`, 'Required value']]);
    });

    test.each<[string, object]>([
      ['path ""', { ...SERVICE, path: '' }],
      ['path "/"', { ...SERVICE, path: '/' }],
      ['a single trailing slash', { ...SERVICE, path: '/validate/' }],
      ['a dotted path', { ...SERVICE, path: '/apis/webhooks.example.com/v1/validate' }],
      ['no path', SERVICE],
      ['port 1', { ...SERVICE, port: 1 }],
      ['port 65535', { ...SERVICE, port: 65535 }],
      ['no port', SERVICE],
      ['any name and namespace strings', { name: 'Not_A.Name!', namespace: 'NS' }],
    ])('accepts %s', (_, service) => {
      expectValid(withService(service));
    });
  });

  describe('caBundle', () => {
    // No validation rule reads it, but it is a []byte: Go's JSON decoding wants standard base64.
    test.each(['Y2E=', 'Y2Fi', 'Y2\nE=', ''])('accepts base64 %j (content is not checked)', (caBundle) => {
      expectValid(config({ clientConfig: { caBundle, service: { name: 'hook', namespace: 'hooks' } } }));
    });

    test.each(['not base64 at all!', 'Y2E', 'Y2E=Y2E=', '-_-_'])('rejects %j, which does not decode', (caBundle) => {
      expectErrors(config({ clientConfig: { caBundle, service: { name: 'hook', namespace: 'hooks' } } }), [
        ['webhooks[0].clientConfig.caBundle', 'illegal base64 data'],
      ]);
    });
  });

  describe('admissionReviewVersions', () => {
    const p = 'webhooks[0].admissionReviewVersions';

    test.each<[string, object, Expected]>([
      ['missing', omit(webhook(), 'admissionReviewVersions'), [[p, 'Required value: must specify one of v1, v1beta1']]],
      ['empty', webhook({ admissionReviewVersions: [] }), [[p, 'Required value: must specify one of v1, v1beta1']]],
      ['without a recognized version', webhook({ admissionReviewVersions: ['v2'] }), [[p, 'must include at least one of v1, v1beta1']]],
      ['with an invalid version', webhook({ admissionReviewVersions: ['v1', '0v'] }), [[`${p}[1]`, `Invalid value: "0v": ${DNS1035}`]]],
      ['with only an invalid version', webhook({ admissionReviewVersions: ['V1'] }), [
        [`${p}[0]`, `Invalid value: "V1": ${DNS1035}`],
        [p, 'must include at least one of v1, v1beta1'],
      ]],
      ['with a duplicate', webhook({ admissionReviewVersions: ['v1', 'v1beta1', 'v1beta1'] }), [[`${p}[2]`, 'Invalid value: "v1beta1": duplicate version']]],
      // A repeated invalid version is reported as a duplicate only, as the apiserver does.
      ['with a duplicated invalid version', webhook({ admissionReviewVersions: ['v1', '0v', '0v'] }), [
        [`${p}[1]`, `Invalid value: "0v": ${DNS1035}`],
        [`${p}[2]`, 'Invalid value: "0v": duplicate version'],
      ]],
    ])('rejects a list %s', (_, hook, expected) => {
      expectErrors(webhookConfiguration(kind, [hook]), expected);
    });

    test.each<[string[]]>([
      [['v1']],
      [['v1beta1']],
      [['v1', 'v1beta1']],
      [['v2', 'v1']],
      [['v1', 'v2alpha1', 'my-future-version']],
    ])('accepts %j', (versions) => {
      expectValid(config({ admissionReviewVersions: versions }));
    });
  });

  describe('matchConditions', () => {
    const p = 'webhooks[0].matchConditions';
    const conditions = (n: number): object[] => Array.from({ length: n }, (_, i) => ({ name: `condition-${i}`, expression: 'true' }));
    const withConditions = (matchConditions: object[]): any => config({ matchConditions });

    test.each<[string, object[], Expected]>([
      ['more than 64', conditions(65), [[p, 'Too many: 65: must have at most 64 items']]],
      ['a missing name', [{ expression: 'true' }], [[`${p}[0].name`, 'Required value']]],
      ['an empty name', [{ name: '', expression: 'true' }], [[`${p}[0].name`, 'Required value']]],
      ['a name starting with a dash', [{ name: '-hello', expression: 'true' }], [[`${p}[0].name`, `Invalid value: "-hello": ${NAME_PART}`]]],
      ['a name with a space', [{ name: 'my condition', expression: 'true' }], [[`${p}[0].name`, NAME_PART]]],
      ['a name with an invalid prefix', [{ name: 'Example.com/check', expression: 'true' }], [[`${p}[0].name`, `prefix part ${SUBDOMAIN}`]]],
      ['a name with two slashes', [{ name: 'a/b/c', expression: 'true' }], [[`${p}[0].name`, "with an optional DNS subdomain prefix and '/'"]]],
      ['a name part longer than 63 characters', [{ name: 'a'.repeat(64), expression: 'true' }], [[`${p}[0].name`, 'name part must be no more than 63 characters']]],
      ['a duplicate name', [{ name: 'x', expression: 'true' }, { name: 'y', expression: 'true' }, { name: 'x', expression: 'false' }],
        [[`${p}[2].name`, 'Duplicate value: "x"']]],
      ['a missing expression', [{ name: 'x' }], [[`${p}[0].expression`, 'Required value']]],
      ['an empty expression', [{ name: 'x', expression: '' }], [[`${p}[0].expression`, 'Required value']]],
      ['a blank expression', [{ name: 'x', expression: ' \n\t ' }], [[`${p}[0].expression`, 'Required value']]],
    ])('rejects %s', (_, matchConditions, expected) => {
      expectErrors(withConditions(matchConditions), expected);
    });

    test('empty names are not duplicates of each other', () => {
      expectErrors(withConditions([{ expression: 'true' }, { expression: 'true' }]), [
        [`${p}[0].name`, 'Required value'],
        [`${p}[1].name`, 'Required value'],
      ]);
    });

    test.each<[string, object[]]>([
      ['64 conditions', conditions(64)],
      ['no conditions', []],
      ['a prefixed name', [{ name: 'example.com/MyName', expression: 'true' }]],
      ['mixed-case names with dots and underscores', [{ name: 'My_name.v2', expression: 'true' }]],
    ])('accepts %s', (_, matchConditions) => {
      expectValid(withConditions(matchConditions));
    });

    test('accepts the same condition name in two webhooks', () => {
      expectValid(config(
        { matchConditions: [{ name: 'x', expression: 'true' }] },
        { name: 'other.example.com', matchConditions: [{ name: 'x', expression: 'true' }] },
      ));
    });
  });

  describe('strict decoding (shape)', () => {
    test('an unknown webhook field is an error at its path', () => {
      expectErrors(config({ timeout: 5 }), [['webhooks[0].timeout', 'unknown field "webhooks[0].timeout"']]);
    });

    test('an unknown field in a nested object is an error at its path', () => {
      expectErrors(config({ clientConfig: { service: { name: 'hook', namespace: 'hooks', paht: '/x' } } }),
        [['webhooks[0].clientConfig.service.paht', 'did you mean "path"?']]);
    });

    test('an unknown top-level field is an error at its path', () => {
      expectErrors({ ...webhookConfiguration(kind), spec: {} }, [['spec', 'unknown field "spec"']]);
    });

    test.each<[string, object, string, string]>([
      ['timeoutSeconds as a string', { timeoutSeconds: '5' }, 'webhooks[0].timeoutSeconds', 'Invalid value: "5": must be of type integer, not string'],
      ['timeoutSeconds as a fraction', { timeoutSeconds: 5.5 }, 'webhooks[0].timeoutSeconds', 'must be of type integer, not a fraction'],
      ['sideEffects as a number', { sideEffects: 1 }, 'webhooks[0].sideEffects', 'must be of type string, not number'],
      ['admissionReviewVersions as a string', { admissionReviewVersions: 'v1' }, 'webhooks[0].admissionReviewVersions', 'must be of type array, not string'],
      ['rules as an object', { rules: RULE }, 'webhooks[0].rules', 'must be of type array, not object'],
      ['name as a number', { name: 42 }, 'webhooks[0].name', 'must be of type string, not number'],
      ['a selector as a list', { namespaceSelector: [] }, 'webhooks[0].namespaceSelector', 'must be of type object, not array'],
    ])('%s is one error at its path', (_, fields, path, message) => {
      expectErrors(config(fields), [[path, message]]);
    });

    test('a null webhook is validated as an empty one, as Go decodes it', () => {
      const found = errors(webhookConfiguration(kind, [webhook(), null as any]));
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((v) => v.path.startsWith('webhooks[1].'))).toBe(true);
      expect(found).toContainEqual(expect.objectContaining({ path: 'webhooks[1].name', message: expect.stringContaining('Required value') }));
    });

    test('a URL with a port but no host name passes, as it does the apiserver, with a warning', () => {
      const manifest = config({ clientConfig: { url: 'https://:8443/validate' } });
      expectErrors(manifest, []);
      expect(warnings(manifest)).toContainEqual(expect.objectContaining({ path: 'webhooks[0].clientConfig.url', message: expect.stringContaining('has a port but no name') }));
    });

    test('a wrong type of a required field is not also reported as missing', () => {
      const found = errors(config({ sideEffects: true }));
      expect(found.map((v) => v.path)).toEqual(['webhooks[0].sideEffects']);
      expect(found[0].message).not.toContain('Required value');
    });
  });
});

describe('ValidatingWebhookConfiguration only', () => {
  test('reinvocationPolicy is an unknown field', () => {
    expectErrors(webhookConfiguration('ValidatingWebhookConfiguration', [webhook({ reinvocationPolicy: 'Never' })]),
      [['webhooks[0].reinvocationPolicy', 'unknown field "webhooks[0].reinvocationPolicy"']]);
  });

  test('an invalid reinvocationPolicy is reported once, as an unknown field', () => {
    expectErrors(webhookConfiguration('ValidatingWebhookConfiguration', [webhook({ reinvocationPolicy: 'Always' })]),
      [['webhooks[0].reinvocationPolicy', 'unknown field']]);
  });
});

describe('MutatingWebhookConfiguration only', () => {
  const mutating = (fields: object): any => webhookConfiguration('MutatingWebhookConfiguration', [webhook(fields)]);

  describe('reinvocationPolicy', () => {
    test.each(['IfNeeded', 'Never'])('accepts %s', (value) => {
      expectValid(mutating({ reinvocationPolicy: value }));
    });

    test('is optional', () => {
      expectValid(mutating({}));
    });

    test.each(['x', 'Always', 'never', ''])('rejects %j with the sorted supported values', (value) => {
      expectErrors(mutating({ reinvocationPolicy: value }),
        [['webhooks[0].reinvocationPolicy', `Unsupported value: ${JSON.stringify(value)}: supported values: "IfNeeded", "Never"`]]);
    });

    test('a wrong type is one error at its path', () => {
      expectErrors(mutating({ reinvocationPolicy: 1 }), [['webhooks[0].reinvocationPolicy', 'must be of type string, not number']]);
    });
  });

  test('a mutating and a validating configuration may share webhook names', () => {
    const found = ManifestValidator.validateAll([
      webhookConfiguration('ValidatingWebhookConfiguration'),
      webhookConfiguration('MutatingWebhookConfiguration'),
    ]);
    expect(found.filter((v) => v.severity === ViolationSeverity.ERROR)).toEqual([]);
  });
});
