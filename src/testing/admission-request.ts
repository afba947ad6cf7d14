import { Operation } from '../enums';

/** The user a request is made by, as the apiserver's authenticator reports it. */
export interface UserInfo {
  /**
   * @default 'test-user'
   */
  readonly username?: string;
  /**
   * @default ''
   */
  readonly uid?: string;
  /**
   * @default ['system:authenticated']
   */
  readonly groups?: string[];
  /**
   * @default - none
   */
  readonly extra?: { [key: string]: string[] };
}

/** An API resource: group (`''` for core), version and plural resource name. */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** A request to review, as the apiserver would present it to admission control. */
export interface AdmissionRequest {
  /** The operation: CREATE, UPDATE, DELETE or CONNECT (`Operation.ALL` is not a request's operation, and is rejected). */
  readonly operation: Operation;
  /**
   * The object of the request (absent for DELETE).
   * @default - none
   */
  readonly object?: any;
  /**
   * The existing object, for UPDATE and DELETE.
   * @default - none
   */
  readonly oldObject?: any;
  /**
   * The Namespace object of the request's namespace.
   * @default - looked up by name among the Namespaces the tester was given, else a Namespace with no labels
   */
  readonly namespaceObject?: any;
  /**
   * Who makes the request.
   * @default - user `test-user` in group `system:authenticated`
   */
  readonly userInfo?: UserInfo;
  /**
   * The resource requested.
   * @default - inferred from the object's apiVersion and kind for built-in kinds; required for custom resources
   */
  readonly resource?: GroupVersionResource;
  /**
   * The subresource, e.g. `status` or `scale`.
   * @default - none
   */
  readonly subResource?: string;
  /**
   * The namespace of the request.
   * @default - the object's (or old object's) `metadata.namespace`
   */
  readonly namespace?: string;
  /**
   * The name of the object.
   * @default - the object's (or old object's) `metadata.name`
   */
  readonly name?: string;
  /**
   * Whether the request is a dry run.
   * @default false
   */
  readonly dryRun?: boolean;
}
