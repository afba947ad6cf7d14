/**
 * The shape of a wire-format type as data: what the manifest validator walks to find unknown
 * fields, wrong JSON types and missing required fields.
 */
export type FieldType =
  | { readonly kind: 'string' }
  | { readonly kind: 'integer'; readonly format: 'int32' | 'int64' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'object'; readonly ref: string }
  | { readonly kind: 'array'; readonly items: FieldType }
  /** A JSON object whose keys are free and whose values are strings (labels, annotations). */
  | { readonly kind: 'stringMap' }
  /** Free-form JSON, not checked (managedFields' fieldsV1). */
  | { readonly kind: 'json' };

export interface FieldSchema {
  readonly type: FieldType;
  /**
   * In the definition's OpenAPI `required` list (the apiserver requires it), or `apiVersion` and
   * `kind` of a kind (a manifest is applied by them): see scripts/generate-wire-types.ts.
   */
  readonly required: boolean;
}

export interface TypeSchema {
  readonly [fieldName: string]: FieldSchema;
}
