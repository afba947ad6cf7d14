from cdk8s import ApiObject, ApiObjectMetadata, App, Chart, JsonPatch
from constructs import Construct

from cdk8s_admission import (
    AdmissionResource, Operation, ParamKind, ParamRef, ParameterNotFoundAction,
    ValidatingPolicy, Validation, ValidationAction, ValidationReason, Variable,
)


class ReplicaLimitChart(Chart):
    """Deployments may not have more replicas than the limit in a ConfigMap."""

    def __init__(self, scope: Construct, id: str):
        super().__init__(scope, id)

        # The parameter: a ConfigMap the platform team can edit without touching the policy.
        limits = ApiObject(self, "limits", api_version="v1", kind="ConfigMap",
                           metadata=ApiObjectMetadata(name="replica-limits", namespace="policy-params"))
        limits.add_json_patch(JsonPatch.add("/data", {"maxReplicas": "5"}))

        policy = ValidatingPolicy(self, "replica-limit",
            name="replica-limit",
            resource_rules=[AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE)],
            param_kind=ParamKind(api_version="v1", kind="ConfigMap"),
            variables=[Variable(name="maxReplicas", expression="int(params.data.maxReplicas)")],
            validations=[Validation(
                expression="object.spec.replicas <= variables.maxReplicas",
                message_expression="'replicas must be at most ' + string(variables.maxReplicas)",
                reason=ValidationReason.INVALID,
            )],
        )
        policy.add_match_condition(name="not-kube-system", expression="request.namespace != 'kube-system'")

        policy.with_binding("replica-limit-binding",
            name="replica-limit",
            validation_actions=[ValidationAction.DENY],
            param_ref=ParamRef(name="replica-limits", namespace="policy-params",
                               parameter_not_found_action=ParameterNotFoundAction.DENY),
        )


if __name__ == "__main__":
    app = App()
    ReplicaLimitChart(app, "admission")
    app.synth()
