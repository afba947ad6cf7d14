/**
 * Sets `key` on a plain object as data. An assignment (`o[key] = v`) would change the prototype
 * for `__proto__`; any key of a Kubernetes object, a CEL map or a message literal is data.
 */
export function setDataKey(object: { [key: string]: unknown }, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
