/**
 * The contract between the signing routes (Node: page.ts, routes.ts) and the signing page's
 * browser code (this folder, bundled into `generated/signing-client.js`): the settings block the page
 * reads from `#cfg`, the bodies it posts to `/details` and `/submit`, and their answers. Both
 * sides import this file; it holds types only (nothing runs), so it compiles under both tsconfigs.
 */

/** A message posted to the parent frame and sent as redirect parameters (the spec's signer events). */
export interface PageEvent {
  action: 'signerLoad' | 'signerSign' | 'signerComplete' | 'signerError';
  signerEid: string;
  errorType?: string;
  error?: string;
  message?: string;
  /** The parameters the service adds after signing, passed on as they are. */
  signerStatus?: string;
  nextSignerEid?: string | null;
  documentGroupStatus?: string;
  documentGroupEid?: string;
  etchPacketEid?: string;
}

/**
 * The settings of an error page (error.ts): the `signerError` it posts to the parent frame when
 * opened with `withinIframe=true` inside a frame, and where it then sends the frame (the signer's
 * redirectURL with the same parameters), if anywhere.
 */
export interface ErrorPageConfig {
  withinIframe: boolean;
  event: PageEvent;
  redirect: string | null;
}

/** One of the signer's fields as the page places it: document, page (0-based), rect (points from the page's top-left). */
export interface PageBox {
  document: number;
  fieldId: string;
  type: string;
  page: number;
  rect: { x: number; y: number; width: number; height: number };
}

/** The texts of one kind of mark (signature or initials): its box label and its dialog. */
export interface MarkTexts {
  label: string;
  title: string;
  description: string;
  button: string;
}

/** The `#cfg` JSON block page.ts writes. */
export interface SigningPageConfig {
  /** Base URL of pdf.js and its data (assets.ts). */
  assets: string;
  /** POST URL of the signer's details ({@link DetailsRequest}). */
  details: string;
  /** In person: where the typed name is posted ({@link HandOverRequest}) and whose name it must be; null when not asked. */
  handOver: { url: string; name: string } | null;
  /** POST URL of the submission ({@link SubmitRequest}). */
  submit: string;
  name: string | null;
  email: string | null;
  completed: string;
  completedButtonText: string;
  /** The words before any error the page shows. */
  errorText: string;
  token: string;
  /** Which documents the page shows; sent back with the submission ({@link SubmitRequest}). */
  documentsVersion: string;
  withinIframe: boolean;
  /** The signerLoad message. */
  event: PageEvent;
  /** The pad starts in typed mode (`signatureMode: text`). */
  typed: boolean;
  acceptEachField: boolean;
  showFinish: boolean;
  documents: Array<{ index: number; title: string; url: string }>;
  boxes: PageBox[];
  texts: { signature: MarkTexts; initial: MarkTexts };
  /** The `signaturePageOptions` texts the packet set: the page leaves them as they are in any language. */
  customTexts: string[];
}

/** A point of a drawn stroke, in the pad's canvas pixels. */
export interface StrokePoint {
  x: number;
  y: number;
}

export type MarkInput = { type: 'typed'; text: string } | { type: 'drawn'; strokes: StrokePoint[][] };

/** `POST {details}`: a name and/or email the signer entered. */
export interface DetailsRequest {
  token: string;
  name?: string;
  email?: string;
}

/** `POST {handOver.url}`: the name the signer typed on the hand-over step. */
export interface HandOverRequest {
  token: string;
  name: string;
}

/** `POST {submit}`. */
export interface SubmitRequest {
  token: string;
  signature?: MarkInput;
  initials?: MarkInput;
  /** The signature/initials boxes the signer accepted one by one. */
  accepted?: Array<{ document: number; fieldId: string }>;
  /** The browser's IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), for the audit trail only. */
  timeZone?: string;
  /** The page config's `documentsVersion`: the server refuses the submission when the documents changed since. */
  documentsVersion?: string;
}

/** The answer to either POST: an event when there is one, where to go after signing. */
export interface SigningAnswer {
  event?: PageEvent;
  redirect?: string | null;
}

/** A body as it arrives: the contract's field names, values not yet checked (routes.ts checks each). */
export type Untrusted<T> = { [K in keyof T]?: unknown };
