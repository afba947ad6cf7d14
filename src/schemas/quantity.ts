/**
 * Whether the apiserver decodes `text` as a resource.Quantity (k8s.io/apimachinery
 * pkg/api/resource/quantity.go, ParseQuantity): an optional sign, digits with an optional
 * fraction, and a suffix: none, a decimal SI one (n u m k M G T P E), a binary one (Ki … Ei) or a
 * decimal exponent (e3, E-2). JSON numbers are decoded from their text the same way.
 */
export function isQuantity(text: string): boolean {
  // UnmarshalJSON reads the text between the quotes as sent, escapes included, trimming Go's spaces.
  const sent = JSON.stringify(text).slice(1, -1).replace(GO_SPACE_EDGES, '');
  const m = /^[+-]?[0-9]*(?:\.[0-9]*)?(.*)$/.exec(sent);
  if (!m || sent === '') return false;
  return isSuffix(m[1]);
}

/** Leading and trailing white space as Go's strings.TrimSpace sees it (unicode.IsSpace). */
const GO_SPACE_EDGES = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

const SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);

function isSuffix(suffix: string): boolean {
  if (SUFFIXES.has(suffix)) return true;
  // A decimal exponent: e or E and a signed integer (that fits in 64 bits, as strconv.ParseInt reads it).
  const exponent = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
  return exponent !== null && BigInt(exponent[1]) <= 2n ** 63n - 1n && BigInt(exponent[1]) >= -(2n ** 63n);
}
