// Related locations for a report (where the lock was taken, released, or read), carried in its
// `data.related`: ESLint interpolates only the placeholders a message names and ignores the rest,
// and the editor's language server reads this entry to fill a diagnostic's relatedInformation.

import type { TSESTree } from '@typescript-eslint/utils';

export interface RelatedLocation {
  readonly message: string;
  readonly node: TSESTree.Node;
}

/** `{ related: [...] }` for a report's data, leaving out the locations that are not known. */
export function relatedData(...locations: readonly (RelatedLocation | false | undefined)[]): { related: RelatedLocation[] } {
  return { related: locations.filter((location): location is RelatedLocation => !!location) };
}
