/** The workflows' typed errors (src/errors' shape: name, message, fields with property paths, HTTP status). */
import { CastpressError, type FieldError } from '../../errors/index.js';

/** A definition file that cannot be served: the server does not start (names the file and each property). */
export class WorkflowDefinitionError extends CastpressError {
  constructor(
    readonly file: string,
    fields: FieldError[],
  ) {
    super(
      'WorkflowDefinitionError',
      422,
      `Workflow definition ${file}: ${fields.map((f) => `${f.property}: ${f.message}`).join('; ')}`,
      fields,
    );
  }
}

/** A submission that was already made (a double submit or a replayed form): nothing changed. */
export class SubmissionConflictError extends CastpressError {
  constructor(message: string, property: string) {
    super('SubmissionConflictError', 409, message, [{ property, message }]);
  }
}
