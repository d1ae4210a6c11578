/** Organization settings as the server loads them (`--org FILE`) and keeps them current; the settings themselves are src/packets/request/org.ts. */
export { frameAncestorsFor, frameAncestorsOf, stylesheetOriginsFor } from './policy.js';
export type { FramedPage } from './policy.js';
export {
  OrganizationSettingsStore,
  OrganizationSettingsConflictError,
  type OrganizationSettingsStoreOptions,
  type ReloadCause,
  type ReloadOutcome,
} from './store.js';
export {
  organizationRoutes,
  organizationSettingsAccess,
  type OrganizationRoutesOptions,
  type OrganizationSettingsAccess,
  type SettingsCaller,
} from './routes.js';
