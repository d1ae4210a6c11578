/** The organization's settings routes (`/dashboard/api/organization`) as typed calls. */
import { json } from './api.js';
import type { OrganizationSettings, SettingsView } from '../model/settings.js';

const O = '/dashboard/api/organization';

export const organizationApi = {
  read: () => json<SettingsView>('GET', O),
  update: (settings: OrganizationSettings | Record<string, unknown>) => json<SettingsView>('PUT', O, settings),
  uploadLogo(file: File) {
    const form = new FormData();
    form.set('file', file, file.name);
    return json<SettingsView>('PUT', `${O}/logo`, form);
  },
  removeLogo: () => json<SettingsView>('DELETE', `${O}/logo`),
};
