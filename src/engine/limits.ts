/** The spec's limits, adjustable per engine. */
export interface Limits {
  /** Largest image accepted from a URL or data: URL (bytes). Spec: 10 MB. */
  imageBytes: number;
  /** All `data:` URLs in one fill payload together (characters). Spec: 100k; above it the fill is a 413. */
  dataUrlTotalBytes: number;
  /** JSON request body (bytes), enforced by the REST server. Spec: 1,048,576. */
  jsonBodyBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  imageBytes: 10 * 1024 * 1024,
  dataUrlTotalBytes: 100 * 1024,
  jsonBodyBytes: 1_048_576,
};
