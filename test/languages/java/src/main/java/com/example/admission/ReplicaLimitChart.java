package com.example.admission;

import java.util.List;
import java.util.Map;

import io.github.cdk8sadmission.AdmissionResource;
import io.github.cdk8sadmission.MatchCondition;
import io.github.cdk8sadmission.Operation;
import io.github.cdk8sadmission.ParamKind;
import io.github.cdk8sadmission.ParamRef;
import io.github.cdk8sadmission.ParameterNotFoundAction;
import io.github.cdk8sadmission.ValidatingPolicy;
import io.github.cdk8sadmission.ValidatingPolicyBindingOptions;
import io.github.cdk8sadmission.Validation;
import io.github.cdk8sadmission.ValidationAction;
import io.github.cdk8sadmission.ValidationReason;
import io.github.cdk8sadmission.Variable;
import org.cdk8s.ApiObject;
import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.JsonPatch;
import software.constructs.Construct;

/** Deployments may not have more replicas than the limit in a ConfigMap. */
public class ReplicaLimitChart extends Chart {
    public ReplicaLimitChart(final Construct scope, final String id) {
        super(scope, id);

        // The parameter: a ConfigMap the platform team can edit without touching the policy.
        ApiObject limits = ApiObject.Builder.create(this, "limits")
                .apiVersion("v1")
                .kind("ConfigMap")
                .metadata(ApiObjectMetadata.builder().name("replica-limits").namespace("policy-params").build())
                .build();
        limits.addJsonPatch(JsonPatch.add("/data", Map.of("maxReplicas", "5")));

        ValidatingPolicy policy = ValidatingPolicy.Builder.create(this, "replica-limit")
                .name("replica-limit")
                .resourceRules(List.of(AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE)))
                .paramKind(ParamKind.builder().apiVersion("v1").kind("ConfigMap").build())
                .variables(List.of(Variable.builder().name("maxReplicas").expression("int(params.data.maxReplicas)").build()))
                .validations(List.of(Validation.builder()
                        .expression("object.spec.replicas <= variables.maxReplicas")
                        .messageExpression("'replicas must be at most ' + string(variables.maxReplicas)")
                        .reason(ValidationReason.INVALID)
                        .build()))
                .build();
        policy.addMatchCondition(MatchCondition.builder()
                .name("not-kube-system")
                .expression("request.namespace != 'kube-system'")
                .build());

        policy.withBinding("replica-limit-binding", ValidatingPolicyBindingOptions.builder()
                .name("replica-limit")
                .validationActions(List.of(ValidationAction.DENY))
                .paramRef(ParamRef.builder()
                        .name("replica-limits")
                        .namespace("policy-params")
                        .parameterNotFoundAction(ParameterNotFoundAction.DENY)
                        .build())
                .build());
    }

    public static void main(final String[] args) {
        App app = new App();
        new ReplicaLimitChart(app, "admission");
        app.synth();
    }
}
