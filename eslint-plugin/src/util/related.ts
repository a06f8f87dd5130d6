// Related locations for a report (where the lock was taken, released, or read), carried in its
// `data.related`: ESLint interpolates only the placeholders a message names and ignores the rest,
// and the editor's language server reads this entry to fill a diagnostic's relatedInformation.

import type { TSESTree } from '@typescript-eslint/utils';
import type { RelatedRole } from '../related/index.js';

export interface RelatedLocation {
  readonly message: string;
  readonly node: TSESTree.Node;
  /** Which place of the race this is, where the rule has a timeline (src/timelines): its steps sit here. */
  readonly role?: RelatedRole;
}

/**
 * At most this many related locations per report: a shared value used by every release of a
 * lock-dense file would otherwise carry every release into every report, the square of the sites.
 */
export const MAX_RELATED = 20;

/** `{ related: [...] }` for a report's data, leaving out the locations that are not known (the first `MAX_RELATED`). */
export function relatedData(...locations: readonly (RelatedLocation | false | undefined)[]): { related: RelatedLocation[] } {
  return { related: locations.filter((location): location is RelatedLocation => !!location).slice(0, MAX_RELATED) };
}
