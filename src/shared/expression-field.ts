/** Which expression field is being checked: each has its own CEL environment and result type. */
export enum ExpressionField {
  WEBHOOK_MATCH_CONDITION = 'webhookMatchCondition',
  MATCH_CONDITION = 'matchCondition',
  VARIABLE = 'variable',
  VALIDATION = 'validation',
  MESSAGE_EXPRESSION = 'messageExpression',
  AUDIT_ANNOTATION_VALUE = 'auditAnnotationValue',
  APPLY_CONFIGURATION = 'applyConfiguration',
  JSON_PATCH = 'jsonPatch',
}
