/**
 * A deep copy of JSON data made with this realm's JSON. (`structuredClone` creates its objects in
 * Node's main realm, which breaks `instanceof` checks of code loaded in a jest sandbox.)
 */
export function deepCopy<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}
