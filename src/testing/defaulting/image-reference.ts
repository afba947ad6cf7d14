/**
 * The tag of a container image reference as the defaulters read it (pkg/util/parsers
 * ParseImageName over github.com/distribution/reference ParseNormalizedNamed): the tag given,
 * `latest` when neither a tag nor a digest is given, and '' when the reference does not parse
 * (uppercase in the repository, a bare 64-character hex identifier, a name over 255 characters).
 */
export function imageTag(image: string): string {
  const m = REFERENCE.exec(image);
  if (!m || HEX_IDENTIFIER.test(image) || m[1].length > 255) return '';
  const [, , tag, digest] = m;
  return tag ?? (digest === undefined ? 'latest' : '');
}

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const DOMAIN_AND_PORT = `${HOST}(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN_AND_PORT}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const HEX_IDENTIFIER = /^[a-f0-9]{64}$/;
