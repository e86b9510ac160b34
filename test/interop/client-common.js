// Helpers every client page uses (test/interop/client-page.ts serves this file
// before the page script). Plain JavaScript, served as is.

/** Pixels as base64 (RGBA rows, top first). */
function toBase64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The width × height drawing buffer of a WebGL context, as RGBA rows top first (WebGL reads bottom first). */
function readGlTopFirst(gl, width, height) {
  const d = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, d);
  const rows = new Uint8Array(d.length);
  for (let y = 0; y < height; y++) rows.set(d.subarray((height - 1 - y) * width * 4, (height - y) * width * 4), y * width * 4);
  return rows;
}
