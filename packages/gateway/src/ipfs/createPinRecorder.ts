import { canonicalCid } from './canonicalCid.js';
import { dagSize } from './dagSize.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import type { OwnedPin, PinType } from './pins/PinStore.js';
import type { AnswerObserver } from './proxyToUpstream.js';

/** What the route forwards and watches for a command that pins. */
export interface PinRecorder {
  /** The query to forward (output-shaping flags the gateway applies itself are removed). */
  readonly forward: URLSearchParams;
  readonly observe: AnswerObserver;
  /**
   * How many of the uploaded bytes the recorded pins keep (after `finish`): all of them
   * (`Infinity`) when the command pins everything it stores (add, dag/put, block/put), the roots'
   * DAG sizes for dag/import (a CAR may carry blocks no root reaches), 0 before any pin was recorded.
   */
  covered(): number;
}

/** A pin seen in an answer, with its size when the answer gives it (add's `Size`). */
interface SeenPin {
  readonly cid: string;
  readonly type: PinType;
  readonly size?: number;
}

/**
 * For a proxied command that pins (`add` with pin, `dag/put`/`block/put` with `pin=true`,
 * `dag/import` with pin-roots, `pin/add`): an observer of the upstream's answer that records
 * the key's ownership of what was pinned, with its size (add's own `Size`, which the node computed
 * from the bytes it imported; otherwise `knownSizes` or the DAG's stored size, {@link dagSize}),
 * before the client sees the answer's end. `add`'s roots are the wrapper with wrap-with-directory, else each top-level entry (a
 * Name without '/'); `silent`/`quieter` (and dag/import's `silent`) are applied by the gateway so
 * the roots stay visible to it.
 * Undefined when the command pins nothing with these options.
 *
 * @example
 * const rec = createPinRecorder(ctx, key, 'add', params);
 * proxyToUpstream(req, res, { …, path: `/api/v0/add?${rec.forward}`, observe: rec.observe });
 */
export function createPinRecorder(
  ctx: IpfsCommandContext,
  key: string,
  command: string,
  params: URLSearchParams,
  knownSizes?: ReadonlyMap<string, number>,
): PinRecorder | undefined {
  const forward = new URLSearchParams(params);
  const seen: SeenPin[] = [];
  let recorded = 0;
  let recordedBytes = 0;
  const record = async () => {
    const pins: OwnedPin[] = [];
    for (const p of seen) {
      const size = p.size ?? knownSizes?.get(p.cid) ?? (await dagSize(ctx.upstream, p.cid, p.type));
      pins.push({ cid: p.cid, type: p.type, size });
    }
    if (pins.length > 0) await ctx.pins.add(key, pins);
    recorded = pins.length;
    recordedBytes = pins.reduce((sum, p) => sum + p.size, 0);
  };
  const covered = () => (recorded === 0 ? 0 : command === 'dag/import' ? recordedBytes : Number.POSITIVE_INFINITY);
  const push = (text: unknown, type: PinType, size?: number) => {
    const cid = typeof text === 'string' ? canonicalCid(text) : undefined;
    if (cid !== undefined) seen.push(size === undefined ? { cid, type } : { cid, type, size });
  };
  const parse = (line: string): Record<string, unknown> | undefined => {
    try {
      const v = JSON.parse(line) as unknown;
      return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const simple = (onValue: (v: Record<string, unknown>) => void): PinRecorder => ({
    forward,
    covered,
    observe: {
      line(l) {
        const v = parse(l);
        if (v) onValue(v);
      },
      async finish() {
        await record();
        return undefined;
      },
    },
  });
  const flag = (name: string) => params.get(name) === 'true';

  switch (command) {
    case 'add': {
      if (params.get('pin') === 'false' || flag('only-hash')) return undefined;
      const wrap = flag('wrap-with-directory');
      const silent = flag('silent');
      const quieter = flag('quieter');
      forward.delete('silent');
      forward.delete('quieter');
      const entries: Array<{ line: string; name: string; hash: unknown; size: number }> = [];
      const progress: string[] = [];
      return {
        forward,
        covered,
        observe: {
          replace: silent || quieter,
          line(l) {
            const v = parse(l);
            if (v === undefined || typeof v.Hash !== 'string') {
              if (v !== undefined && v.Bytes !== undefined) progress.push(l);
              return;
            }
            entries.push({
              line: l,
              name: typeof v.Name === 'string' ? v.Name : '',
              hash: v.Hash,
              size: Number(v.Size),
            });
          },
          async finish() {
            const wrapper = entries.filter((e) => e.name === '').at(-1) ?? entries.at(-1);
            const roots = wrap ? (wrapper ? [wrapper] : []) : entries.filter((e) => !e.name.includes('/'));
            for (const e of roots) {
              push(e.hash, 'recursive', Number.isFinite(e.size) ? e.size : undefined);
            }
            await record();
            if (silent) return '';
            const last = entries.at(-1);
            return [...progress, ...(last ? [last.line] : [])].map((l) => `${l}\n`).join('');
          },
        },
      };
    }
    case 'dag/put':
      if (!flag('pin')) return undefined;
      return simple((v) => push((v.Cid as { '/'?: unknown } | undefined)?.['/'], 'recursive'));
    case 'block/put':
      if (!flag('pin')) return undefined;
      return simple((v) => push(v.Key, 'recursive'));
    case 'dag/import': {
      if (params.get('pin-roots') === 'false') return undefined;
      // silent hides the Root lines: the gateway asks for them and drops them itself
      const silent = flag('silent');
      forward.delete('silent');
      const recorder = simple((v) => {
        const root = v.Root as { Cid?: { '/'?: unknown }; PinErrorMsg?: unknown } | undefined;
        if (root && (root.PinErrorMsg === undefined || root.PinErrorMsg === '')) push(root.Cid?.['/'], 'recursive');
      });
      return silent
        ? {
            forward,
            covered,
            observe: {
              replace: true,
              line: recorder.observe.line,
              async finish() {
                await record();
                return '';
              },
            },
          }
        : recorder;
    }
    case 'pin/add': {
      const type: PinType = params.get('recursive') === 'false' ? 'direct' : 'recursive';
      return simple((v) => {
        if (Array.isArray(v.Pins)) for (const cid of v.Pins) push(cid, type);
      });
    }
    default:
      return undefined;
  }
}
