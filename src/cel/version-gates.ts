import { AUTHZ, AUTHZ_SELECTORS } from './libraries/authz';
import { CIDR } from './libraries/cidr';
import { EXT_LISTS } from './libraries/ext-lists';
import { IP } from './libraries/ip';
import { KUBERNETES_LISTS } from './libraries/kubernetes-lists';
import { NAMED_FORMATS } from './libraries/named-formats';
import { OPTIONAL_EXTRAS } from './libraries/optionals';
import { QUANTITY } from './libraries/quantity';
import { REGEX } from './libraries/regex';
import { SEMVER } from './libraries/semver';
import { SETS } from './libraries/sets';
import { STANDARD_ADDITIONS } from './libraries/standard-additions';
import { STRINGS_V0, STRINGS_V2 } from './libraries/strings';
import { TWO_VAR_COMPREHENSIONS } from './libraries/two-var-comprehensions';
import { URLS } from './libraries/urls';
import { CelLibrary } from './library';
import { ROUTED_BUILTINS } from './routes';

/**
 * Which CEL libraries and options a new expression may use, by target Kubernetes version.
 *
 * The apiserver compiles new and changed expressions in its NewExpressions environment, which
 * holds what was introduced at or before its compatibility version: by default the previous
 * minor (k8s.io/apiserver/pkg/cel/environment/base.go). So a library introduced in 1.X is
 * usable on a 1.(X+1) cluster: `ip()` needs a 1.31 target although 1.30 introduced it.
 * Expressions already stored keep the wider StoredExpressions environment; a synthesized
 * manifest is always new, so this library checks against NewExpressions.
 */
export interface VersionedFeature {
  /** Minor version of `IntroducedVersion` in base.go. 0 = always present in the supported range. */
  readonly introduced: number;
  readonly library?: CelLibrary;
}

export const FEATURES = {
  standardAdditions: { introduced: 0, library: STANDARD_ADDITIONS },
  routedBuiltins: { introduced: 0, library: ROUTED_BUILTINS },
  kubernetesLists: { introduced: 0, library: KUBERNETES_LISTS },
  regex: { introduced: 0, library: REGEX },
  urls: { introduced: 0, library: URLS },
  stringsV0: { introduced: 0, library: STRINGS_V0 },
  homogeneousAggregateLiterals: { introduced: 0 },
  authz: { introduced: 27, library: AUTHZ },
  crossTypeNumericComparisons: { introduced: 28 },
  optionalTypes: { introduced: 28, library: OPTIONAL_EXTRAS },
  quantity: { introduced: 28, library: QUANTITY },
  literalValidators: { introduced: 29 },
  sets: { introduced: 29, library: SETS },
  stringsV2: { introduced: 29, library: STRINGS_V2 },
  ip: { introduced: 30, library: IP },
  cidr: { introduced: 30, library: CIDR },
  namedFormats: { introduced: 31, library: NAMED_FORMATS },
  authzSelectors: { introduced: 31, library: AUTHZ_SELECTORS },
  twoVarComprehensions: { introduced: 32, library: TWO_VAR_COMPREHENSIONS },
  semver: { introduced: 33, library: SEMVER },
  extListsV3: { introduced: 34, library: EXT_LISTS },
} as const satisfies Record<string, VersionedFeature>;

export type FeatureName = keyof typeof FEATURES;

/** The compatibility version whose NewExpressions environment a target's apiserver uses. */
export function newExpressionsMinor(targetMinor: number): number {
  return targetMinor - 1;
}

/** True if new expressions on a cluster of `targetMinor` may use the feature. */
export function isAvailable(feature: FeatureName, targetMinor: number): boolean {
  return FEATURES[feature].introduced <= newExpressionsMinor(targetMinor);
}

/** The first target version whose new expressions may use the feature. */
export function firstTarget(feature: FeatureName): number {
  return FEATURES[feature].introduced + 1;
}

/** The libraries for a target, in installation order (a library's types before their users). */
export function librariesFor(targetMinor: number): CelLibrary[] {
  const out: CelLibrary[] = [];
  for (const name of Object.keys(FEATURES) as FeatureName[]) {
    const feature: VersionedFeature = FEATURES[name];
    if (feature.library && isAvailable(name, targetMinor)) out.push(feature.library);
  }
  return out;
}
