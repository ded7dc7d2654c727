/**
 * A felt read as a Cairo short string (its bytes big-endian, up to 31), when all its bytes are printable ASCII;
 * otherwise its `0x` hex. Panic data such as `0x4f7574206f6620676173` reads as `Out of gas`.
 */
export function decodeShortString(felt: bigint): string {
  const hex = felt.toString(16);
  if (felt === 0n || hex.length > 62) return `0x${hex}`;
  const padded = hex.length % 2 === 1 ? `0${hex}` : hex;
  let text = '';
  for (let i = 0; i < padded.length; i += 2) {
    const c = Number.parseInt(padded.slice(i, i + 2), 16);
    if (c < 0x20 || c > 0x7e) return `0x${hex}`;
    text += String.fromCharCode(c);
  }
  return text;
}
