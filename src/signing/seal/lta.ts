/**
 * PAdES B-LTA: a document timestamp (/Type /DocTimeStamp, SubFilter ETSI.RFC3161) appended after
 * the DSS as the document's last update. It covers every signature and the validation data, so a
 * relying party can still check them after their certificates expire or their algorithms weaken
 * (ETSI EN 319 142-1 §5.5). The kernel's one signature writer writes it (src/pdf
 * `appendSignatureRevision`); its value is the TSA's token over the byte ranges' digest.
 */
import { ValidationError } from '../../errors/index.js';
import { appendSignatureRevision } from '../../pdf/index.js';
import { isTimestampOptions, timestampAuthority, type TimestampOptions } from '../identity/timestamp.js';
import { timestampToken } from '../cms/timestamp-token.js';

export interface DocumentTimestampOptions {
  /** The TSA: `{url, fetch}` or `{local}` (the built-in one). */
  timestamp: TimestampOptions;
}

/** Room for the token in /Contents: the TSA's certificates and the token's own signed data. */
const TOKEN_RESERVE = 12288;

/**
 * Appends a document timestamp over the whole of `bytes` (e.g. after `embedValidationData` at
 * the end of a document signed in turn). The input is an exact prefix of the result.
 */
export async function addDocumentTimestamp(bytes: Uint8Array, options: DocumentTimestampOptions): Promise<Uint8Array> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  if (!isTimestampOptions(options?.timestamp))
    throw ValidationError.of('timestamp', 'Expected {url, fetch} or {local}');
  const tsa = timestampAuthority(options.timestamp);
  return appendSignatureRevision(bytes, {
    signature: {
      kind: 'document-timestamp',
      fieldName: 'Document timestamp',
      reserve: TOKEN_RESERVE,
      sign: (digest) => timestampToken(tsa, digest),
    },
  });
}
