import type * as wire from './wire/meta';

/** How a label selector requirement compares a label. */
export enum LabelSelectorOperator {
  IN = 'In',
  NOT_IN = 'NotIn',
  EXISTS = 'Exists',
  DOES_NOT_EXIST = 'DoesNotExist',
}

/** One requirement of a label selector. */
export interface LabelSelectorRequirement {
  /** The label key. */
  readonly key: string;
  /** How the label is compared. */
  readonly operator: LabelSelectorOperator;
  /**
   * The values for `In` and `NotIn` (required there, and forbidden for `Exists` and `DoesNotExist`).
   * @default - none
   */
  readonly values?: string[];
}

/** Selects objects (or namespaces) by their labels; an empty selector selects everything. */
export interface LabelSelector {
  /**
   * Labels that must all be present with these values.
   * @default - none
   */
  readonly matchLabels?: { [key: string]: string };
  /**
   * Requirements that must all hold.
   * @default - none
   */
  readonly matchExpressions?: LabelSelectorRequirement[];
}

/** The wire form of a selector, `{}` when none is given (the apiserver's default, written out). */
export function renderLabelSelector(selector: LabelSelector | undefined): wire.LabelSelector {
  if (!selector) return {};
  return {
    ...(selector.matchLabels && Object.keys(selector.matchLabels).length > 0 ? { matchLabels: { ...selector.matchLabels } } : {}),
    ...(selector.matchExpressions && selector.matchExpressions.length > 0
      ? {
        matchExpressions: selector.matchExpressions.map((r) => ({
          key: r.key,
          operator: r.operator,
          ...(r.values ? { values: [...r.values] } : {}),
        })),
      }
      : {}),
  };
}
