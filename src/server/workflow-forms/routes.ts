/**
 * The workflows' forms (no API key: a workflow's first form is public, a run's later forms need the
 * run's token from the link the previous step gave):
 *
 * - `GET  /weld/:weld`                  the first forge's form (a run starts when it is posted)
 * - `GET  /weld/:weld/:forge?run=&t=`   a run's next forge
 * - `POST /weld/:weld/:forge`           a submission (application/x-www-form-urlencoded, at most `bodyBytes`)
 * - `GET  /weld/:weld/done?run=&t=&forge=&submission=`  the holder's last step: sign now, weldComplete to a parent frame
 * - `GET  /weld/:weld/confirm?run=&c=`  an address typed into a form: its owner's confirmation page;
 *   `POST /weld/:weld/confirm` (run, c) confirms it
 *
 * A run link (`run`, `t`) opens only the forms of its party (src/workflows parties.ts) of that workflow: another
 * party's form, another workflow's slug, an unknown run or a wrong token are the same 404.
 *
 * A browser gets HTML (the form again with its errors beside the fields); a client asking for JSON
 * gets the typed error. Strict CSP as the signing page: nothing but this response's nonce runs or styles.
 * Framing is the embeddable pages' policy (../org/policy.ts): the forms and the done page may be framed
 * by any origin unless the organization or the operator narrows it; the confirmation page (a mail
 * link's) by the server itself and the operator's origins only.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError, isCastpressError } from '../../errors/index.js';
import type { OrganizationDirectory } from '../../packets/index.js';
import { organizationOf, partyForm, type WorkflowService } from '../../workflows/index.js';
import { toHttpError } from '../http/errors.js';
import { frameAncestorsOf, type FramedPage } from '../org/index.js';
import { cspOrigin } from '../replies/stylesheet-origin.js';
import { pageHeaders } from '../replies/page-headers.js';
import { confirmPage, donePage, errorPage, formPage } from './form-html.js';

/** A form of a few dozen fields is a few KiB; 64 KiB leaves room and refuses uploads in disguise. */
const WELD_FORM_BODY_BYTES = 64 * 1024;

export interface WorkflowFormRoutesOptions {
  welds: { get(): Promise<WorkflowService> };
  /** The operator's origins (`--frame-ancestor`): the embeddable pages' list unless the organization has one. */
  frameAncestors?: readonly string[];
  /** Each organization's settings (`--org`): its `embedOrigins` narrow who frames its forms. */
  organizations?: OrganizationDirectory;
  bodyBytes?: number;
}

type Params = { weld: string; forge: string };
type Query = Record<string, string | undefined>;

function headers(reply: FastifyReply, nonce: string, frameAncestors: readonly string[]): FastifyReply {
  // frame-ancestors is the page's sources as given (['*'] or "'self'" and origins).
  return pageHeaders(
    reply,
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors ${frameAncestors.join(' ')}`,
  ).type('text/html; charset=utf-8');
}

const wantsJson = (request: FastifyRequest): boolean => {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};

const url = (path: string, query: Record<string, string>): string => `${path}?${new URLSearchParams(query).toString()}`;

export function weldRoutes(app: FastifyInstance, options: WorkflowFormRoutesOptions): void {
  const operator = (options.frameAncestors ?? []).map((o) => cspOrigin(o, 'Frame ancestor'));
  /** The `frame-ancestors` of a page of `organization`'s workflows (undefined: not known yet). */
  const framing = (page: FramedPage, organization?: string): string[] =>
    frameAncestorsOf(page, organization === undefined ? undefined : options.organizations?.(organization), operator);
  const limit = options.bodyBytes ?? WELD_FORM_BODY_BYTES;
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: limit },
      (_req, body, done) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of new URLSearchParams(String(body))) {
          const had = out[k];
          out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
        }
        done(null, out);
      },
    );
    scope.setErrorHandler(async (error, request, reply) => {
      const http = toHttpError(error, limit);
      if (http.status >= 500) request.log.error({ err: error }, 'workflow form failed');
      if (wantsJson(request))
        return reply.code(http.status).headers(http.headers).type('application/json; charset=utf-8').send(http.body);
      const nonce = randomBytes(16).toString('base64');
      // Framed as the forms are, so an app framing a form sees the error.
      return headers(reply.code(http.status), nonce, framing('embeddable')).send(
        errorPage(http.body.name, http.body.message, nonce),
      );
    });

    scope.get<{ Params: { weld: string } }>('/weld/:weld', async (request, reply) => {
      const welds = await options.welds.get();
      const workflow = welds.workflow(request.params.weld);
      const forge = workflow.forges[0]!;
      const nonce = randomBytes(16).toString('base64');
      return headers(reply, nonce, framing('embeddable', organizationOf(workflow))).send(
        formPage({
          workflow,
          forge,
          action: `/weld/${encodeURIComponent(workflow.slug)}/${encodeURIComponent(forge.slug)}`,
          hidden: { submissionEid: welds.newSubmissionEid() },
          nonce,
          organization: welds.organization(organizationOf(workflow)),
        }),
      );
    });

    scope.get<{ Params: { weld: string }; Querystring: Query }>('/weld/:weld/done', async (request, reply) => {
      const welds = await options.welds.get();
      const link = await welds.link(request.params.weld, request.query.run, request.query.t);
      const { run, workflow } = link;
      const forge = link.forges.find((f) => f.slug === request.query.forge) ?? link.forges.at(-1)!;
      const signUrl = await welds.signingUrlFor(link, forge.slug);
      const organization = welds.organization(run.organization);
      const nonce = randomBytes(16).toString('base64');
      return headers(reply, nonce, framing('embeddable', run.organization)).send(
        donePage({
          workflow,
          organization,
          ...(signUrl ? { signUrl } : {}),
          message: {
            action: 'weldComplete',
            organizationSlug: organization.slug,
            organizationEid: organization.eid,
            weldEid: workflow.eid,
            weldDataEid: run.eid,
            forgeEid: forge.eid,
            submissionEid: String(request.query.submission ?? ''),
          },
          nonce,
        }),
      );
    });

    scope.get<{ Params: { weld: string }; Querystring: Query }>('/weld/:weld/confirm', async (request, reply) => {
      const welds = await options.welds.get();
      const c = await welds.confirmation(request.params.weld, request.query.run, request.query.c);
      const nonce = randomBytes(16).toString('base64');
      return headers(reply, nonce, framing('mailed')).send(
        confirmPage({
          workflow: c.workflow,
          email: c.email,
          confirmed: c.confirmed,
          action: `/weld/${encodeURIComponent(c.workflow.slug)}/confirm`,
          hidden: { run: c.run.eid, c: String(request.query.c) },
          nonce,
          organization: welds.organization(c.run.organization),
        }),
      );
    });

    scope.post<{ Params: { weld: string }; Body: Record<string, unknown> }>(
      '/weld/:weld/confirm',
      { bodyLimit: limit },
      async (request, reply) => {
        const welds = await options.welds.get();
        const body = request.body && typeof request.body === 'object' ? request.body : {};
        const c = await welds.confirmAddress(request.params.weld, body.run, body.c);
        if (wantsJson(request)) return reply.code(200).send({ weldDataEid: c.run.eid, status: c.run.status });
        const nonce = randomBytes(16).toString('base64');
        return headers(reply, nonce, framing('mailed')).send(
          confirmPage({
            workflow: c.workflow,
            email: c.email,
            confirmed: true,
            action: '',
            hidden: {},
            nonce,
            organization: welds.organization(c.run.organization),
          }),
        );
      },
    );

    scope.get<{ Params: Params; Querystring: Query }>('/weld/:weld/:forge', async (request, reply) => {
      const welds = await options.welds.get();
      const link = await welds.link(request.params.weld, request.query.run, request.query.t);
      const { run, workflow } = link;
      // A forge the workflow lacks is named; another party's form is the same answer as a wrong link.
      if (!workflow.forges.some((f) => f.slug === request.params.forge))
        throw ValidationError.of('forge', `Workflow "${workflow.slug}" has no forge "${request.params.forge}"`);
      const forge = partyForm(link, request.params.forge);
      const nonce = randomBytes(16).toString('base64');
      return headers(reply, nonce, framing('embeddable', run.organization)).send(
        formPage({
          workflow,
          forge,
          action: `/weld/${encodeURIComponent(workflow.slug)}/${encodeURIComponent(forge.slug)}`,
          hidden: { weldDataEid: run.eid, t: String(request.query.t), submissionEid: welds.newSubmissionEid() },
          nonce,
          organization: welds.organization(run.organization),
        }),
      );
    });

    scope.post<{ Params: Params; Body: Record<string, unknown> }>(
      '/weld/:weld/:forge',
      { bodyLimit: limit },
      async (request, reply) => {
        const welds = await options.welds.get();
        const body = request.body && typeof request.body === 'object' ? request.body : {};
        const { weldDataEid, t, ...fields } = body;
        try {
          const done = await welds.submitForge({
            weld: request.params.weld,
            forge: request.params.forge,
            ...(weldDataEid !== undefined ? { weldDataEid, token: t } : {}),
            body: fields,
          });
          const base = `/weld/${encodeURIComponent(done.workflow.slug)}`;
          const next = done.next
            ? url(`${base}/${encodeURIComponent(done.next.slug)}`, { run: done.run.eid, t: done.token })
            : url(`${base}/done`, {
                run: done.run.eid,
                t: done.token,
                forge: request.params.forge,
                submission: done.submission.eid,
              });
          if (wantsJson(request))
            return reply
              .code(201)
              .send({ weldDataEid: done.run.eid, submissionEid: done.submission.eid, status: done.run.status, next });
          return reply.redirect(next, 303);
        } catch (e) {
          // A browser gets its form back with the errors beside the fields and its values kept.
          if (!(e instanceof ValidationError) || wantsJson(request) || !isCastpressError(e)) throw e;
          const welds2 = welds;
          const workflow = welds2.workflow(request.params.weld);
          const forge = workflow.forges.find((f) => f.slug === request.params.forge);
          if (!forge) throw e;
          const nonce = randomBytes(16).toString('base64');
          const hidden: Record<string, string> = { submissionEid: welds.newSubmissionEid() };
          if (typeof weldDataEid === 'string' && typeof t === 'string') Object.assign(hidden, { weldDataEid, t });
          return headers(reply.code(e.status), nonce, framing('embeddable', organizationOf(workflow))).send(
            formPage({
              workflow,
              forge,
              action: request.url,
              hidden,
              values: fields,
              errors: e.fields,
              nonce,
              organization: welds.organization(organizationOf(workflow)),
            }),
          );
        }
      },
    );
  });
}
