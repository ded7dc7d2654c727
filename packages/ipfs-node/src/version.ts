/** The version this node reports (`version`, `id` agent). */
export const NODE_VERSION = '0.1.0';
