package com.example.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.cdk8sadmission.AdmissionRequest;
import io.github.cdk8sadmission.AdmissionResource;
import io.github.cdk8sadmission.AdmissionResult;
import io.github.cdk8sadmission.CaBundle;
import io.github.cdk8sadmission.CoverageThreshold;
import io.github.cdk8sadmission.CoverageThresholds;
import io.github.cdk8sadmission.DenialExpectation;
import io.github.cdk8sadmission.FailurePolicy;
import io.github.cdk8sadmission.KubernetesVersion;
import io.github.cdk8sadmission.ManifestValidator;
import io.github.cdk8sadmission.MutatingPolicy;
import io.github.cdk8sadmission.MutatingPolicyBindingOptions;
import io.github.cdk8sadmission.MutatingWebhookConfiguration;
import io.github.cdk8sadmission.Mutation;
import io.github.cdk8sadmission.Operation;
import io.github.cdk8sadmission.PolicyCoverageSummary;
import io.github.cdk8sadmission.PolicyDenial;
import io.github.cdk8sadmission.PolicyTester;
import io.github.cdk8sadmission.PolicyTesterOptions;
import io.github.cdk8sadmission.UserInfo;
import io.github.cdk8sadmission.ValidatingPolicy;
import io.github.cdk8sadmission.ValidatingPolicyBindingOptions;
import io.github.cdk8sadmission.ValidatingWebhookConfiguration;
import io.github.cdk8sadmission.Validation;
import io.github.cdk8sadmission.ValidationAction;
import io.github.cdk8sadmission.Violation;
import io.github.cdk8sadmission.ViolationSeverity;
import io.github.cdk8sadmission.Webhook;
import io.github.cdk8sadmission.WebhookOptions;
import org.cdk8s.ApiObject;
import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.JsonPatch;
import org.cdk8s.Testing;
import org.junit.jupiter.api.Test;
import software.constructs.Construct;

/** cdk8s-admission used from Java, as a user of the Maven artifact writes it (JUnit 5). */
class AdmissionTest {
    private static final Path FIXTURES = Path.of("..", "..", "fixtures");
    private static final String CA_PEM = read(FIXTURES.resolve("ca.pem"));

    /**
     * Where TypeScript and JavaScript users get "did you mean" for an unknown key, a Java user
     * cannot write one: a struct is built with its builder, and a misspelled setter does not
     * compile. This compiles such a class against the test's own classpath and reads the error.
     */
    @Test
    void aMisspelledBuilderMethodDoesNotCompile() throws java.io.IOException {
        String source = "class Misspelled { Object v = io.github.cdk8sadmission.Validation.builder().expression(\"true\").mesage(\"m\").build(); }";
        Path dir = Files.createTempDirectory("misspelled");
        Path file = Files.writeString(dir.resolve("Misspelled.java"), source);
        javax.tools.JavaCompiler compiler = javax.tools.ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int status = compiler.run(null, null, errors, "-d", dir.toString(), "-classpath", System.getProperty("java.class.path"), file.toString());
        String text = errors.toString(StandardCharsets.UTF_8);
        assertTrue(status != 0, "a builder call of the misspelled setter mesage compiled");
        assertTrue(text.contains("cannot find symbol") && text.contains("method mesage(String)"), text);
    }

    /** A MutatingPolicy that labels pods with their team. */
    static class PodLabelsChart extends Chart {
        PodLabelsChart(final Construct scope, final String id) {
            super(scope, id);
            MutatingPolicy.Builder.create(this, "team-label")
                    .name("team-label")
                    .resourceRules(List.of(AdmissionResource.PODS.rule(Operation.CREATE)))
                    .mutations(List.of(Mutation.applyConfiguration(
                            "Object{metadata: Object.metadata{labels: {\"team\": \"shop\"}}}")))
                    .build()
                    .withBinding("team-label-binding", MutatingPolicyBindingOptions.builder().name("team-label").build());
        }
    }

    /** A webhook server's Service, and the ValidatingWebhookConfiguration that calls it. */
    static class WebhookChart extends Chart {
        WebhookChart(final Construct scope, final String id) {
            super(scope, id, ChartProps.builder().namespace("hooks").build());
            ApiObject service = ApiObject.Builder.create(this, "service")
                    .apiVersion("v1")
                    .kind("Service")
                    .metadata(ApiObjectMetadata.builder().name("policy-webhook").build())
                    .build();
            service.addJsonPatch(JsonPatch.add("/spec", Map.of("ports", List.of(Map.of("name", "https", "port", 443, "targetPort", 9443)))));
            ValidatingWebhookConfiguration.Builder.create(this, "validating")
                    .name("policy-webhook")
                    .caBundle(CaBundle.fromPem(CA_PEM))
                    .webhooks(List.of(Webhook.forService(service, WebhookOptions.builder()
                            .name("validate.ingresses.example.com")
                            .path("/validate")
                            .rules(List.of(AdmissionResource.INGRESSES.rule(Operation.CREATE, Operation.UPDATE)))
                            .failurePolicy(FailurePolicy.IGNORE)
                            .build())))
                    .build();
        }
    }

    @Test
    void gettingStartedSynthesizesThePolicyItsBindingAndTheParam() {
        Map<String, Map<String, Object>> manifests = byKind(Testing.synth(new ReplicaLimitChart(Testing.app(), "admission")));
        assertEquals(Map.of("maxReplicas", "5"), manifests.get("ConfigMap").get("data"));

        Map<String, Object> policy = manifests.get("ValidatingAdmissionPolicy");
        assertEquals("admissionregistration.k8s.io/v1", policy.get("apiVersion"));
        assertEquals(Map.of("name", "replica-limit"), policy.get("metadata"));
        Map<String, Object> spec = map(policy.get("spec"));
        assertEquals("Fail", spec.get("failurePolicy"));
        assertEquals(List.of(Map.of(
                "apiGroups", List.of("apps"), "apiVersions", List.of("v1"), "resources", List.of("deployments"),
                "operations", List.of("CREATE", "UPDATE"), "scope", "Namespaced")),
                map(spec.get("matchConstraints")).get("resourceRules"));
        assertEquals(Map.of("apiVersion", "v1", "kind", "ConfigMap"), spec.get("paramKind"));
        assertEquals(List.of(Map.of("name", "maxReplicas", "expression", "int(params.data.maxReplicas)")), spec.get("variables"));
        assertEquals(List.of(Map.of(
                "expression", "object.spec.replicas <= variables.maxReplicas",
                "messageExpression", "'replicas must be at most ' + string(variables.maxReplicas)",
                "reason", "Invalid")), spec.get("validations"));
        assertEquals(List.of(Map.of("name", "not-kube-system", "expression", "request.namespace != 'kube-system'")), spec.get("matchConditions"));

        assertEquals(Map.of(
                "policyName", "replica-limit",
                "validationActions", List.of("Deny"),
                "paramRef", Map.of("name", "replica-limits", "namespace", "policy-params", "parameterNotFoundAction", "Deny")),
                manifests.get("ValidatingAdmissionPolicyBinding").get("spec"));
    }

    @Test
    void gettingStartedRunsAsAProgram() throws Exception {
        Path written = Path.of("dist", "admission.k8s.yaml");
        Files.deleteIfExists(written);
        ReplicaLimitChart.main(new String[0]);
        assertTrue(read(written).contains("kind: ValidatingAdmissionPolicyBinding"));
    }

    @Test
    void mutatingPolicyAndBinding() {
        Map<String, Map<String, Object>> manifests = byKind(Testing.synth(new PodLabelsChart(Testing.app(), "labels")));
        Map<String, Object> spec = map(manifests.get("MutatingAdmissionPolicy").get("spec"));
        assertEquals(List.of(Map.of(
                "patchType", "ApplyConfiguration",
                "applyConfiguration", Map.of("expression", "Object{metadata: Object.metadata{labels: {\"team\": \"shop\"}}}"))),
                spec.get("mutations"));
        assertEquals("Never", spec.get("reinvocationPolicy"));
        assertEquals(Map.of("policyName", "team-label"), manifests.get("MutatingAdmissionPolicyBinding").get("spec"));
    }

    @Test
    void webhookConfigurationForAServiceWithACaBundle() {
        Map<String, Object> configuration = byKind(Testing.synth(new WebhookChart(Testing.app(), "webhooks"))).get("ValidatingWebhookConfiguration");
        assertFalse(map(configuration.get("metadata")).containsKey("namespace"));
        List<?> webhooks = (List<?>) configuration.get("webhooks");
        assertEquals(1, webhooks.size());
        Map<String, Object> webhook = map(webhooks.get(0));
        assertEquals("validate.ingresses.example.com", webhook.get("name"));
        Map<String, Object> clientConfig = map(webhook.get("clientConfig"));
        assertEquals(Map.of("name", "policy-webhook", "namespace", "hooks", "path", "/validate", "port", 443), clientConfig.get("service"));
        assertEquals(CA_PEM, new String(Base64.getDecoder().decode((String) clientConfig.get("caBundle")), StandardCharsets.UTF_8));
        assertEquals(List.of(Map.of(
                "apiGroups", List.of("networking.k8s.io"), "apiVersions", List.of("v1"), "resources", List.of("ingresses"),
                "operations", List.of("CREATE", "UPDATE"), "scope", "Namespaced")),
                webhook.get("rules"));
        assertEquals("Ignore", webhook.get("failurePolicy"));
        assertEquals("None", webhook.get("sideEffects"));
        assertEquals(List.of("v1"), webhook.get("admissionReviewVersions"));
    }

    @Test
    void badCelFailsSynthNamingTheConstructAndTheFieldPath() {
        Chart chart = new Chart(Testing.app(), "bad");
        ValidatingPolicy.Builder.create(chart, "typo")
                .resourceRules(List.of(AdmissionResource.PODS.rule()))
                .validations(List.of(Validation.builder().expression("object.spec.containers.all(c, c.image.startsWith('registry/')").build()))
                .build();
        RuntimeException error = assertThrows(RuntimeException.class, () -> Testing.synth(chart));
        assertTrue(error.getMessage().contains("[bad/typo] spec.validations[0].expression: Invalid value"), error.getMessage());
        assertTrue(error.getMessage().contains("compilation failed"), error.getMessage());
    }

    @Test
    void errorsKeepTheirMessageThroughTheJsiiRuntime() {
        Chart chart = new Chart(Testing.app(), "bad");
        ValidatingPolicy policy = ValidatingPolicy.Builder.create(chart, "p")
                .resourceRules(List.of(AdmissionResource.PODS.rule()))
                .validations(List.of(Validation.builder().expression("true").build()))
                .build();
        policy.withBinding("b", ValidatingPolicyBindingOptions.builder()
                .validationActions(List.of(ValidationAction.DENY, ValidationAction.WARN))
                .build());
        RuntimeException synth = assertThrows(RuntimeException.class, () -> Testing.synth(chart));
        assertTrue(synth.getMessage().contains("[bad/b] spec.validationActions: "), synth.getMessage());
        assertTrue(synth.getMessage().contains("must not contain both Deny and Warn"), synth.getMessage());

        RuntimeException version = assertThrows(RuntimeException.class, () -> KubernetesVersion.of("1.27"));
        assertTrue(version.getMessage().contains("Kubernetes 1.27 is not supported"), version.getMessage());
    }

    @Test
    void policyTesterDecisions() {
        PolicyTester tester = PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), "admission"));
        assertTrue(tester.review(create(deployment(5))).getAllowed());

        AdmissionResult denied = tester.review(create(deployment(6)));
        assertFalse(denied.getAllowed());
        assertEquals(
                List.of("ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: replicas must be at most 5"),
                denied.getDenials().stream().map(PolicyDenial::getMessage).collect(Collectors.toList()));
        assertEquals("Invalid", denied.getDenials().get(0).getReason());
        assertEquals(422, denied.getDenials().get(0).getCode().intValue());

        AdmissionRequest scaleUp = AdmissionRequest.builder().operation(Operation.UPDATE).object(deployment(6)).oldObject(deployment(5)).build();
        assertFalse(tester.review(scaleUp).getAllowed());

        Map<String, Object> system = new HashMap<>(deployment(50));
        system.put("metadata", Map.of("name", "coredns", "namespace", "kube-system"));
        assertTrue(tester.review(AdmissionRequest.builder().operation(Operation.UPDATE).object(system).oldObject(system).build()).getAllowed());
    }

    @Test
    void policyTesterAssertionsExplanationsAndCoverage() {
        PolicyTester tester = PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), "admission"),
                PolicyTesterOptions.builder().coverage(true).build());
        AdmissionRequest tooMany = create(deployment(6));
        AdmissionResult denied = tester.assertDenied(tooMany, DenialExpectation.builder().policy("replica-limit").message("at most 5").code(422).build());
        assertFalse(denied.getAllowed());
        tester.assertAllowed(create(deployment(5)));
        tester.assertMatchedBy(tooMany, "replica-limit");

        // A failing assertion throws with the explanation: the values of the expression that was false.
        RuntimeException failed = assertThrows(RuntimeException.class, () -> tester.assertAllowed(tooMany));
        assertTrue(failed.getMessage().contains("expected the request to be allowed, but it was denied"), failed.getMessage());
        assertTrue(failed.getMessage().contains("6 <= 5 -> false"), failed.getMessage());
        assertTrue(tester.explain(tooMany).contains("object.spec.replicas <= variables.maxReplicas -> false"));

        List<PolicyCoverageSummary> policies = tester.coverage().getPolicies();
        assertEquals(1, policies.size());
        assertEquals(2, policies.get(0).getValidations().getCovered().intValue());
        assertEquals(List.of(), tester.coverage().thresholdFailures(
                CoverageThresholds.builder().global(CoverageThreshold.builder().validations(100).build()).build()));
        RuntimeException unknown = assertThrows(RuntimeException.class, () -> tester.coverage().thresholdFailures(
                CoverageThresholds.builder().policies(Map.of("replica-limits", CoverageThreshold.builder().bindings(100).build())).build()));
        assertTrue(unknown.getMessage().contains("names 'replica-limits', which the report does not have"), unknown.getMessage());
    }

    @Test
    void policyTesterMutatedObject() {
        PolicyTester tester = PolicyTester.fromChart(new PodLabelsChart(Testing.app(), "labels"));
        Map<String, Object> podSpec = Map.of("containers", List.of(Map.of("name", "web", "image", "shop/web:1.2.3")));
        Map<String, Object> pod = Map.of(
                "apiVersion", "v1", "kind", "Pod",
                "metadata", Map.of("name", "web", "namespace", "shop", "labels", Map.of("app", "web")),
                "spec", podSpec);
        AdmissionResult result = tester.review(create(pod));
        assertTrue(result.getAllowed());
        Map<String, Object> patched = map(result.getPatchedObject());
        assertEquals(Map.of("app", "web", "team", "shop"), map(patched.get("metadata")).get("labels"));
        // Defaulted as a cluster defaults it before and after each mutation.
        Map<String, Object> spec = map(patched.get("spec"));
        assertEquals("shop/web:1.2.3", map(((List<?>) spec.get("containers")).get(0)).get("image"));
        assertEquals("Always", spec.get("restartPolicy"));

        AdmissionResult untouched = PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), "admission")).review(create(deployment(1)));
        assertNull(untouched.getPatchedObject());
    }

    @Test
    void mutatingWebhookConfigurationForAUrl() {
        Chart chart = new Chart(Testing.app(), "hooks");
        MutatingWebhookConfiguration.Builder.create(chart, "mutating")
                .name("defaults")
                .caBundle(CaBundle.fromPem(CA_PEM))
                .webhooks(List.of(Webhook.forUrl("https://hooks.example.com/mutate", WebhookOptions.builder()
                        .name("default.jobs.example.com")
                        .rules(List.of(AdmissionResource.JOBS.rule(Operation.CREATE)))
                        .build())))
                .build();
        List<Object> manifests = Testing.synth(chart);
        assertEquals(1, manifests.size());
        Map<String, Object> configuration = map(manifests.get(0));
        assertEquals("MutatingWebhookConfiguration", configuration.get("kind"));
        Map<String, Object> webhook = map(((List<?>) configuration.get("webhooks")).get(0));
        assertEquals("https://hooks.example.com/mutate", map(webhook.get("clientConfig")).get("url"));
        assertEquals("Never", webhook.get("reinvocationPolicy"));
        assertEquals(Map.of("matchExpressions", List.of(Map.of(
                "key", "kubernetes.io/metadata.name", "operator", "NotIn", "values", List.of("kube-system")))),
                webhook.get("namespaceSelector"));
    }

    @Test
    void manifestValidatorOnManifestsFromElsewhere() {
        Map<String, Object> configMap = Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", Map.of("name", "settings"));
        Map<String, Object> binding = Map.of(
                "apiVersion", "admissionregistration.k8s.io/v1", "kind", "ValidatingAdmissionPolicyBinding",
                "metadata", Map.of("name", "b"),
                "spec", Map.of("policyName", "p", "validationActions", List.of("Deny", "Warn")));
        List<Violation> violations = ManifestValidator.validateAll(List.of(configMap, binding));
        assertEquals(1, violations.size());
        Violation violation = violations.get(0);
        assertEquals(ViolationSeverity.ERROR, violation.getSeverity());
        assertEquals("spec.validationActions", violation.getPath());
        assertEquals(1, violation.getManifestIndex().intValue());
        assertTrue(violation.getMessage().contains("must not contain both Deny and Warn"), violation.getMessage());
    }

    @Test
    void policyTesterFromYamlWithTheRequestingUser() {
        PolicyTester tester = PolicyTester.fromYaml(read(FIXTURES.resolve("no-contractor-pods.yaml")));
        Map<String, Object> pod = Map.of(
                "apiVersion", "v1", "kind", "Pod",
                "metadata", Map.of("name", "web", "namespace", "shop"),
                "spec", Map.of("containers", List.of(Map.of("name", "web", "image", "shop/web:1.2.3"))));
        AdmissionRequest byStaff = AdmissionRequest.builder().operation(Operation.CREATE).object(pod)
                .userInfo(UserInfo.builder().username("alice").groups(List.of("staff")).build()).build();
        assertTrue(tester.review(byStaff).getAllowed());
        AdmissionRequest byContractor = AdmissionRequest.builder().operation(Operation.CREATE).object(pod)
                .userInfo(UserInfo.builder().username("mallory").groups(List.of("contractors")).build()).build();
        assertEquals(
                List.of("ValidatingAdmissionPolicy 'no-contractor-pods' with binding 'no-contractor-pods' denied request: contractors may not create pods"),
                tester.review(byContractor).getDenials().stream().map(PolicyDenial::getMessage).collect(Collectors.toList()));
    }

    private static AdmissionRequest create(final Map<String, Object> object) {
        return AdmissionRequest.builder().operation(Operation.CREATE).object(object).build();
    }

    private static Map<String, Object> deployment(final int replicas) {
        return Map.of(
                "apiVersion", "apps/v1", "kind", "Deployment",
                "metadata", Map.of("name", "web", "namespace", "shop"),
                "spec", Map.of("replicas", replicas));
    }

    private static Map<String, Map<String, Object>> byKind(final List<Object> manifests) {
        Map<String, Map<String, Object>> byKind = new HashMap<>();
        for (Object manifest : manifests) {
            byKind.put((String) map(manifest).get("kind"), map(manifest));
        }
        return byKind;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(final Object value) {
        return (Map<String, Object>) value;
    }

    private static String read(final Path path) {
        try {
            return Files.readString(path);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
