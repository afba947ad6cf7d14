import { ApiObjectMetadata } from 'cdk8s';
import { IConstruct } from 'constructs';

/**
 * The metadata of a cluster-scoped object from a construct's `name` and `metadata` props.
 * A namespace is rejected rather than dropped (these kinds have none), and `name` and
 * `metadata.name` may not disagree. Without either, cdk8s generates the name.
 */
export function objectMetadata(props: { name?: string; metadata?: ApiObjectMetadata }, construct: IConstruct): ApiObjectMetadata {
  const { namespace, ...metadata } = props.metadata ?? {};
  if (namespace !== undefined) {
    throw new Error(`${construct.node.path}: metadata.namespace ${JSON.stringify(namespace)} is not allowed: admissionregistration objects are cluster-scoped; remove it`);
  }
  if (props.name !== undefined && metadata.name !== undefined && props.name !== metadata.name) {
    throw new Error(`${construct.node.path}: name ${JSON.stringify(props.name)} and metadata.name ${JSON.stringify(metadata.name)} differ; set one of them`);
  }
  const name = props.name ?? metadata.name;
  return name !== undefined ? { ...metadata, name } : metadata;
}
