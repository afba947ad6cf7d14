/**
 * Sets `key` on a plain object as data. An assignment (`o[key] = v`) would change the prototype
 * for `__proto__` (the one accessor plain objects inherit); any key of a Kubernetes object, a CEL
 * map or a message literal is data.
 */
export function setDataKey(object: { [key: string]: unknown }, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
