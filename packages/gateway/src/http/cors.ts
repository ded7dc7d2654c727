export { CORS_HEADERS, PREFLIGHT_HEADERS } from '../wire/corsHeaders.js';
