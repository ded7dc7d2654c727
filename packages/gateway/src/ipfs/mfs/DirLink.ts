import type { CID } from 'multiformats/cid';

/** One entry of a UnixFS directory: its name, its node and the node's cumulative size (`Tsize`). */
export interface DirLink {
  readonly name: string;
  readonly cid: CID;
  readonly tsize: number;
}
