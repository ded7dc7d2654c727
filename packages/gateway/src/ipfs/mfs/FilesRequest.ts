import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServedMeter } from '../createServedMeter.js';
import type { IpfsCommandContext } from '../IpfsCommandContext.js';
import type { Mfs } from './createMfs.js';

/** One authenticated `files/*` request, as each command reads it. */
export interface FilesRequest {
  readonly key: string;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The query, canonical (`arg` holds the arguments in order). */
  readonly params: URLSearchParams;
  readonly mfs: Mfs;
  readonly ctx: IpfsCommandContext;
  /** The key's served-bytes meter (files/read and files/ls answers are content). */
  readonly meter?: ServedMeter | undefined;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}
