// The page side of test/interop/atlas-clients.test.ts: sprat's engine atlas
// exports (phaser3, starling, pixi) loaded in the real PixiJS 8 (global PIXI)
// and Phaser 3 (global Phaser) as their documentation says, each named frame
// drawn at a known point over a known background and read back. Plain
// JavaScript, served as is: nothing of sprat in the page.
// Served after client-common.js (toBase64, readGlTopFirst).

/**
 * PixiJS 8: Assets.load(url) of the first sheet of a multi-pack (it loads the
 * `related_multi_packs` too); each check draws `new Sprite(texture)` from the
 * sheet or its linked sheets, its anchor set to 0 (the anchor PixiJS took
 * from the file is returned), at (x, y) into a W×H render texture cleared to `bg`.
 */
window.pixiMultipack = async (url, width, height, bg, checks) => {
  const renderer = await PIXI.autoDetectRenderer({ preference: 'webgl', width, height, antialias: false, backgroundAlpha: 1 });
  const sheet = await PIXI.Assets.load(url);
  const sheets = [sheet, ...(sheet.linkedSheets || [])];
  for (const s of sheets) s.textureSource.scaleMode = 'nearest';
  const target = PIXI.RenderTexture.create({ width, height });
  const results = [];
  for (const c of checks) {
    const owner = sheets.find((s) => s.textures[c.name]);
    if (!owner) {
      results.push({ error: `no texture "${c.name}"` });
      continue;
    }
    const texture = owner.textures[c.name];
    const stage = new PIXI.Container();
    const sprite = new PIXI.Sprite(texture);
    const anchor = [sprite.anchor.x, sprite.anchor.y];
    sprite.anchor.set(0, 0);
    sprite.position.set(c.x, c.y);
    stage.addChild(sprite);
    renderer.render({ container: stage, target, clear: true, clearColor: bg.map((v) => v / 255) });
    const { pixels } = renderer.extract.pixels(target);
    results.push({
      pixels: toBase64(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength)),
      anchor,
      size: [texture.orig.width, texture.orig.height],
      sheet: sheets.indexOf(owner),
      animations: Object.fromEntries(sheets.flatMap((s) => Object.entries(s.animations).map(([k, v]) => [k, v.map((t) => t.label)]))),
    });
    stage.destroy();
  }
  target.destroy(true);
  await PIXI.Assets.unload(url);
  renderer.destroy();
  return results;
};

/**
 * Phaser 3: `load.multiatlas(key, url, path)` (kind 'multiatlas', `files` =
 * [url]) or one `load.atlasXML(key + i, png, xml)` per page (kind
 * 'atlasXML', `files` = [[png, xml], ...]); then one image showing each
 * check's frame (from texture `key` + `c.page` for atlasXML) with its origin
 * at the upper-left corner of the frame's source size, at (x, y);
 * `pixelArt: true`, WebGL; the canvas is read after the next render.
 */
window.phaserAtlas = (kind, files, width, height, bg, checks) =>
  new Promise((resolve, reject) => {
    const results = [];
    const hex = `#${bg
      .slice(0, 3)
      .map((v) => v.toString(16).padStart(2, '0'))
      .join('')}`;
    const key = (c) => (kind === 'multiatlas' ? 'sheet' : `sheet${c.page}`);
    const game = new Phaser.Game({
      type: Phaser.WEBGL,
      width,
      height,
      backgroundColor: hex,
      pixelArt: true,
      banner: false,
      audio: { noAudio: true },
      render: { preserveDrawingBuffer: true, antialias: false },
      scene: {
        preload() {
          this.load.on('loaderror', (f) => reject(new Error(`Phaser could not load ${f.src}`)));
          if (kind === 'multiatlas') this.load.multiatlas('sheet', files[0], files[0].replace(/[^/]*$/, ''));
          else files.forEach(([png, xml], i) => this.load.atlasXML(`sheet${i}`, png, xml));
        },
        create() {
          const image = this.add.image(0, 0, key(checks[0]));
          let i = -1;
          const next = () => {
            i++;
            if (i > 0) {
              const rows = readGlTopFirst(game.renderer.gl, width, height);
              results.push({ pixels: toBase64(rows), size: [image.width, image.height] });
            }
            if (i >= checks.length) {
              game.events.off('postrender', step);
              game.destroy(true);
              resolve(results);
              return;
            }
            const c = checks[i];
            if (!this.textures.get(key(c)).has(c.name)) throw new Error(`no frame "${c.name}" in ${key(c)}`);
            image.setTexture(key(c), c.name);
            image.setOrigin(0, 0);
            image.setPosition(c.x, c.y);
          };
          const step = () => {
            try {
              next();
            } catch (e) {
              game.events.off('postrender', step);
              game.destroy(true);
              reject(e);
            }
          };
          game.events.on('postrender', step);
        },
      },
    });
  });
