import { useSyncExternalStore } from 'react';

// A small history router: the app's paths live under /dashboard (the gateway answers index.html for all of them).

export const BASE_PATH = '/dashboard';

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
window.addEventListener('popstate', notify);

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
const snapshot = () => window.location.pathname + window.location.search;

/** The current path inside the dashboard (`/keys/abc`), and its query. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const full = useSyncExternalStore(subscribe, snapshot);
  const [pathname = '', search = ''] = full.split('?');
  const path = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) || '/' : pathname;
  return { path: path.replace(/\/+$/, '') || '/', search: new URLSearchParams(search) };
}

/** Goes to a dashboard path (`/keys`), adding a history entry unless `replace`. */
export function navigate(path: string, replace = false): void {
  const url = `${BASE_PATH}${path === '/' ? '' : path}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  notify();
  window.scrollTo(0, 0);
}

/** An href for a dashboard path. */
export const href = (path: string) => `${BASE_PATH}${path === '/' ? '' : path}`;

/** An anchor's click handler that navigates in the app (ctrl/meta-click still opens a tab). */
export function onLinkClick(path: string) {
  return (e: { preventDefault(): void; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; button: number }) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(path);
  };
}
