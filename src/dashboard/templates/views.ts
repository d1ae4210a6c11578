/** What the dashboard's JSON API answers (DASHBOARD-API.md): the store's records with ISO times. */
import type { TemplateListing, TemplateRecord } from '../../template/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function templateDetail(r: TemplateRecord) {
  return {
    eid: r.eid,
    name: r.name,
    pages: r.pages,
    working: r.working,
    publishedVersion: r.publishedVersion,
    hasUnpublishedChanges: r.hasUnpublishedChanges,
    versions: r.versions.map((v) => ({
      versionNumber: v.versionNumber,
      publishedAt: iso(v.publishedAt),
      publishedBy: v.publishedBy,
    })),
    updatedAt: iso(r.updatedAt),
  };
}

export function templateSummary(t: TemplateListing) {
  return { ...t, updatedAt: iso(t.updatedAt) };
}
