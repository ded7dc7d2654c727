import type { PBLink } from '@ipld/dag-pb';

/** A link as the legacy object/* commands print it. */
export interface ObjectLinkJson {
  Name: string;
  Hash: string;
  Size: number;
}

/** Kubo's `{Name,Hash,Size}` for a dag-pb link (missing name → "", missing size → 0). */
export function objectLinkJson(link: PBLink): ObjectLinkJson {
  return { Name: link.Name ?? '', Hash: link.Hash.toString(), Size: link.Tsize ?? 0 };
}
