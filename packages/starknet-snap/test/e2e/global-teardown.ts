import { type BackendInfo, stopBackend } from './backend';

export default async function globalTeardown(): Promise<void> {
  const info = (globalThis as { __SNAP_E2E_BACKEND__?: BackendInfo }).__SNAP_E2E_BACKEND__;
  if (info) stopBackend(info);
}
