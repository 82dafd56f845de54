import type { PerturbationKind } from "../kind.js";
import { customFieldReplacement } from "./drift-custom-field.js";
import { customFieldRename } from "./drift-custom-rename.js";
import { deprecatedField } from "./drift-deprecated.js";
import { namespacePrefix } from "./drift-namespace.js";
import { inactiveDuplicates } from "./rot-inactive-duplicates.js";
import { knowledgeVersions } from "./rot-knowledge-versions.js";
import { mergedDuplicates } from "./rot-merged-duplicates.js";
import { distractorPassages } from "./rot-passages.js";
import { recycleBin } from "./rot-recycle-bin.js";
import { supersededPolicies } from "./rot-superseded-policies.js";

/** The built-in kinds, in planning order within their family. */
export const BUILT_IN_KINDS: readonly PerturbationKind[] = [
  recycleBin,
  mergedDuplicates,
  knowledgeVersions,
  inactiveDuplicates,
  supersededPolicies,
  distractorPassages,
  deprecatedField,
  customFieldReplacement,
  namespacePrefix,
  customFieldRename,
];

export { guidanceOf } from "./rot-passages.js";
export { SUPERSEDED_TITLE } from "./rot-superseded-policies.js";
