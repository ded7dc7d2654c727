import { createUndiciPoster } from './createUndiciPoster.js';
import { jsonPosterContract } from './jsonPosterContract.js';

jsonPosterContract('createUndiciPoster (undici)', createUndiciPoster);
