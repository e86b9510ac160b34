// The page side of test/interop/real-clients.test.ts: real sheet files from
// public projects loaded in the real PixiJS 8 (global PIXI) and Phaser 3
// (global Phaser) as their documentation says, each named frame drawn at a
// known point over a known background and read back. Plain JavaScript,
// served as is: nothing of sprat in the page.
// Served after client-common.js (toBase64, readGlTopFirst).

/**
 * PixiJS 8: Assets.load(json) gives a Spritesheet (`data.imageFilename`: the
 * image of a JSON that names none); each check draws
 * `new Sprite(sheet.textures[name])` (the anchor PixiJS took from the file)
 * at (x, y) into a W×H render texture cleared to `bg`, read back with
 * renderer.extract.
 */
window.pixiFrames = async (url, imageFilename, width, height, bg, checks) => {
  const renderer = await PIXI.autoDetectRenderer({ preference: 'webgl', width, height, antialias: false, backgroundAlpha: 1 });
  const sheet = await PIXI.Assets.load(imageFilename ? { src: url, data: { imageFilename } } : url);
  sheet.textureSource.scaleMode = 'nearest';
  const target = PIXI.RenderTexture.create({ width, height });
  const results = [];
  for (const c of checks) {
    const texture = sheet.textures[c.name];
    if (!texture) {
      results.push({ error: `no texture "${c.name}"` });
      continue;
    }
    const stage = new PIXI.Container();
    const sprite = new PIXI.Sprite(texture);
    sprite.position.set(c.x, c.y);
    stage.addChild(sprite);
    renderer.render({ container: stage, target, clear: true, clearColor: bg.map((v) => v / 255) });
    const { pixels } = renderer.extract.pixels(target);
    results.push({
      pixels: toBase64(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength)),
      anchor: [sprite.anchor.x, sprite.anchor.y],
      size: [texture.orig.width, texture.orig.height],
    });
    stage.destroy();
  }
  target.destroy(true);
  await PIXI.Assets.unload(url);
  renderer.destroy();
  return results;
};

/**
 * Phaser 3: load.atlas (load.multiatlas for a `textures` list), then one
 * image showing each named frame with its origin at the upper-left corner of
 * the frame's source size, at (x, y); `pixelArt: true`, WebGL; the canvas is
 * read after the next render.
 */
window.phaserFrames = (multi, jsonUrl, pngUrl, width, height, bg, checks) =>
  new Promise((resolve, reject) => {
    const results = [];
    const hex = `#${bg
      .slice(0, 3)
      .map((v) => v.toString(16).padStart(2, '0'))
      .join('')}`;
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
          if (multi) this.load.multiatlas('sheet', jsonUrl, jsonUrl.replace(/[^/]*$/, ''));
          else this.load.atlas('sheet', pngUrl, jsonUrl);
        },
        create() {
          const image = this.add.image(0, 0, 'sheet');
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
            if (!this.textures.get('sheet').has(c.name)) throw new Error(`no frame "${c.name}"`);
            image.setFrame(c.name);
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
