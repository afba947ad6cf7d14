/**
 * The name formats of k8s.io/apimachinery (pkg/util/validation/validation.go and
 * pkg/api/validation/path/name.go), which the manifest validator and the CEL
 * `format` library both apply.
 *
 * Each function mirrors one validator and returns the same error details the
 * API server would report: an empty array means the value is valid.
 *
 * Lengths are counted in UTF-8 bytes, as Go's `len()` counts them.
 *
 * Internal module: not exported from the package index.
 */

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH = 63;

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_MAX_LENGTH = 63;

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_ERR_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH = 63;

const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

const PATH_SEGMENT_MAY_NOT_BE: readonly string[] = ['.', '..'];
const PATH_SEGMENT_MAY_NOT_CONTAIN: readonly string[] = ['/', '%'];

/**
 * Tests for a string that conforms to the definition of a subdomain in DNS
 * (RFC 1123), lowercase. Mirrors apimachinery `validation.IsDNS1123Subdomain`.
 */
export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
    errs.push(maxLenBytesError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  }
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(regexError(DNS1123_SUBDOMAIN_ERR_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/**
 * Tests for a string that conforms to the definition of a label in DNS
 * (RFC 1123). Mirrors apimachinery `validation.IsDNS1123Label`.
 */
export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) {
    errs.push(maxLenBytesError(DNS1123_LABEL_MAX_LENGTH));
  }
  if (!DNS1123_LABEL_RE.test(value)) {
    if (DNS1123_SUBDOMAIN_RE.test(value)) {
      // A valid subdomain but not a valid label: it must contain dots.
      errs.push('must not contain dots');
    } else {
      errs.push(regexError(DNS1123_LABEL_ERR_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
    }
  }
  return errs;
}

/**
 * Tests for a string that conforms to the definition of a label in DNS
 * (RFC 1035). Mirrors apimachinery `validation.IsDNS1035Label`.
 */
export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) {
    errs.push(maxLenBytesError(DNS1035_LABEL_MAX_LENGTH));
  }
  if (!DNS1035_LABEL_RE.test(value)) {
    errs.push(regexError(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  }
  return errs;
}

/**
 * Tests whether the value is what Kubernetes calls a "qualified name" (a label
 * key): an optional DNS subdomain prefix and '/', then a name part.
 * Mirrors apimachinery `validation.IsQualifiedName`.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError()}`);
    } else {
      for (const msg of isDns1123Subdomain(prefix)) {
        errs.push(`prefix part ${msg}`);
      }
    }
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`
        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }

  if (name.length === 0) {
    errs.push(`name part ${emptyError()}`);
  } else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) {
    errs.push(`name part ${maxLenCharactersError(QUALIFIED_NAME_MAX_LENGTH)}`);
  }
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/**
 * Tests whether the value is a valid label value (empty is allowed).
 * Mirrors apimachinery `validation.IsValidLabelValue`.
 */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) {
    errs.push(maxLenCharactersError(LABEL_VALUE_MAX_LENGTH));
  }
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(regexError(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/**
 * Tests whether the value can be used as a single segment of a REST path.
 * Mirrors apimachinery `path.IsValidPathSegmentName`.
 */
export function isPathSegmentName(value: string): string[] {
  for (const illegalName of PATH_SEGMENT_MAY_NOT_BE) {
    if (value === illegalName) {
      return [`may not be '${illegalName}'`];
    }
  }
  const errs: string[] = [];
  for (const illegalContent of PATH_SEGMENT_MAY_NOT_CONTAIN) {
    if (value.includes(illegalContent)) {
      errs.push(`may not contain '${illegalContent}'`);
    }
  }
  return errs;
}

/**
 * apimachinery `RegexError` (always called with examples here): the message,
 * the examples and the regex.
 * Each example is followed by ", " and joined with " or ", which is why the
 * rendered text has two spaces after the commas.
 */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  const eg = examples.map((example) => `'${example}', `).join(' or ');
  return `${msg} (e.g. ${eg}regex used for validation is '${fmt}')`;
}

/**
 * apimachinery `MaxLenError`. Upstream is moving this text from "characters"
 * (k8s.io/apimachinery/pkg/util/validation) to "bytes"
 * (k8s.io/apimachinery/pkg/api/validate/content); the DNS validators use the
 * "bytes" wording, the label key and value validators the "characters" one.
 */
function maxLenBytesError(length: number): string {
  return `must be no more than ${length} bytes`;
}

function maxLenCharactersError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** apimachinery `EmptyError`. */
function emptyError(): string {
  return 'must be non-empty';
}

/** The UTF-8 length of a string, which is what Go's `len()` reports. */
function byteLength(value: string): number {
  let n = 0;
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) {
      n += 1;
    } else if (cp < 0x800) {
      n += 2;
    } else if (cp < 0x10000) {
      n += 3;
    } else {
      n += 4;
    }
  }
  return n;
}
