/** The spec's limits, adjustable per engine. */
export interface Limits {
  /** Largest image accepted from a URL or data: URL (bytes). Spec: 10 MB. */
  imageBytes: number;
  /** All `data:` URLs in one fill payload together (characters). Spec: 100k; above it the fill is a 413. */
  dataUrlTotalBytes: number;
  /** JSON request body (bytes), enforced by the REST server. Spec: 1,048,576. */
  jsonBodyBytes: number;
  /**
   * Signature packets (createEtchPacket): files in one packet. 413 on `files`. The hosted
   * API documents no figure; 50 is far above any real packet (a lease with every annex is ~10).
   */
  packetFiles: number;
  /** Pages of one file of a packet (upload, template or generated). 413 on `files[i]`. */
  packetPagesPerFile: number;
  /** Pages of a whole packet, every file together. 413 on the file that passes it. */
  packetPages: number;
  /** Bytes of a packet's uploads together (decoded, each reference counted). 413 on the upload that passes it. */
  packetUploadBytes: number;
  /**
   * Signature and initial fields of one document of a packet (each file, or the merged one with `mergePDFs`),
   * from the request and from text tags. 413 on the file that passes it, found while its tags are read. At most
   * the kernel's 1,000 signature fields a document.
   */
  packetSignatureFields: number;
}

export const DEFAULT_LIMITS: Limits = {
  imageBytes: 10 * 1024 * 1024,
  dataUrlTotalBytes: 100 * 1024,
  jsonBodyBytes: 1_048_576,
  packetFiles: 50,
  packetPagesPerFile: 2_000,
  packetPages: 5_000,
  packetUploadBytes: 64 * 1024 * 1024,
  packetSignatureFields: 1_000,
};
