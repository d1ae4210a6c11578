/**
 * Field detection: a PDF's bytes → proposed template fields (its form's fields named for people,
 * its text tags, the boxes, lines, combs and check boxes of flat pages), which a person accepts or
 * edits (the dashboard) and `createCast` uses when detection is on.
 */
export { detectFields } from './detect.js';
export { LIMITS as DETECTION_LIMITS } from './types.js';
export type {
  DetectionResult,
  DetectionSource,
  DetectOptions,
  FieldProposal,
  LabelSource,
  ProposedField,
} from './types.js';
