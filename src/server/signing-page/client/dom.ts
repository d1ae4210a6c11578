/** Elements of the signing page by id (page.ts renders them). */

/** An element page.ts always renders for this mode. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** An element page.ts renders only with some options. */
export function maybe$<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}
