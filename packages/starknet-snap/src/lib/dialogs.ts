import { Bold, Box, Copyable, Divider, Heading, type JSXElement, Text } from '@metamask/snaps-sdk/jsx';
import { Mutex } from './mutex';
import { userRejected } from './errors';

/** A labelled value shown in a dialog. */
export type Field = readonly [label: string, value: string];

// One dialog at a time: concurrent requests queue their dialogs, so each one is answered for what it shows.
const dialogLock = new Mutex();

type Child = JSXElement;

function body(title: string, fields: readonly Field[], extra: readonly string[]): JSXElement {
  const items: Child[] = [Heading({ children: title })];
  for (const [label, value] of fields) {
    items.push(Text({ children: Bold({ children: `${label}:` }) }), Copyable({ value }));
  }
  if (extra.length) {
    items.push(Divider({}));
    for (const line of extra) items.push(Text({ children: line }));
  }
  return Box({ children: items });
}

/**
 * Shows a confirmation dialog; throws 4001 when the user declines.
 *
 * @param title - The dialog heading (also used in the rejection message).
 * @param fields - Labelled values to show.
 * @param extra - Further components (e.g. a warning).
 * @example
 * ```ts
 * await confirmOrReject('Send transaction', [['From', sender], ['To', recipient]]);
 * ```
 */
export async function confirmOrReject(
  title: string,
  fields: readonly Field[],
  extra: readonly string[] = [],
): Promise<void> {
  const ok = await dialogLock.run(() =>
    snap.request({ method: 'snap_dialog', params: { type: 'confirmation', content: body(title, fields, extra) } }),
  );
  if (ok !== true) throw userRejected(title);
}

/**
 * Shows an alert dialog (information only) and waits until it is dismissed.
 *
 * @param title - The dialog heading.
 * @param fields - Labelled values to show.
 * @param extra - Further components.
 */
export async function showAlert(title: string, fields: readonly Field[], extra: readonly string[] = []): Promise<void> {
  await dialogLock.run(() =>
    snap.request({ method: 'snap_dialog', params: { type: 'alert', content: body(title, fields, extra) } }),
  );
}
