// The page side of test/interop/clients.test.ts: loads sprat's exports in the
// real PixiJS 8 (global PIXI, dist/pixi.min.js) and Phaser 3 (global Phaser,
// dist/phaser.min.js) the way their documentation says, draws frames at a
// known point with the origin each file gives, and reads the pixels back.
// Plain JavaScript, served as is: no bundling, nothing of sprat in the page.
// Served after client-common.js (toBase64, readGlTopFirst).

/**
 * PixiJS 8: Assets.load(json) gives a Spritesheet; each check draws
 * `new AnimatedSprite(sheet.animations[anim])` stopped at `frame`, at (x, y),
 * with the anchor PixiJS took from the file, into a W×H render texture
 * cleared to `bg`, and reads it back with renderer.extract.
 */
window.pixiDraw = async (url, width, height, bg, checks) => {
  const renderer = await PIXI.autoDetectRenderer({ preference: 'webgl', width, height, antialias: false, backgroundAlpha: 1 });
  const sheet = await PIXI.Assets.load(url);
  sheet.textureSource.scaleMode = 'nearest';
  const target = PIXI.RenderTexture.create({ width, height });
  const out = { animations: {}, results: [] };
  for (const [name, textures] of Object.entries(sheet.animations)) {
    out.animations[name] = { frames: textures.length, missing: textures.filter((t) => !t).length };
  }
  for (const c of checks) {
    const stage = new PIXI.Container();
    const textures = sheet.animations[c.anim];
    if (!textures || textures.some((t) => !t)) {
      out.results.push({ error: `animation "${c.anim}" has no textures` });
      continue;
    }
    const sprite = new PIXI.AnimatedSprite({ textures, autoUpdate: false });
    sprite.gotoAndStop(c.frame);
    sprite.position.set(c.x, c.y);
    stage.addChild(sprite);
    renderer.render({ container: stage, target, clear: true, clearColor: bg.map((v) => v / 255) });
    const { pixels } = renderer.extract.pixels(target);
    out.results.push({ pixels: toBase64(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength)), anchor: [sprite.anchor.x, sprite.anchor.y] });
    stage.destroy({ children: true });
  }
  target.destroy(true);
  renderer.destroy();
  return out;
};

/**
 * Phaser 3: an Aseprite export through load.aseprite + anims.createFromAseprite
 * (the sprite's origin set from the `origin` slice: Phaser reads no slices;
 * or the upper-left corner without one), a TexturePacker export through
 * load.atlas (Phaser applies the frame's anchor/pivot itself). `pixelArt:
 * true`, WebGL; each check shows one frame at (x, y) and reads the canvas
 * after the next render.
 */
window.phaserDraw = (kind, jsonUrl, pngUrl, width, height, bg, checks) =>
  new Promise((resolve, reject) => {
    const out = { animations: {}, results: [] };
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
      callbacks: { postBoot: () => undefined },
      scene: {
        preload() {
          this.load.on('loaderror', (f) => reject(new Error(`Phaser could not load ${f.src}`)));
          if (kind === 'aseprite') this.load.aseprite('sheet', pngUrl, jsonUrl);
          else this.load.atlas('sheet', pngUrl, jsonUrl);
        },
        create() {
          const sprite = this.add.sprite(0, 0, 'sheet');
          let json;
          if (kind === 'aseprite') {
            json = this.cache.json.get('sheet');
            for (const a of this.anims.createFromAseprite('sheet')) {
              out.animations[a.key] = { frames: a.frames.length, durations: a.frames.map((f) => f.duration), yoyo: a.yoyo };
            }
            const key = json.meta.slices.find((s) => s.name === 'origin')?.keys[0];
            const size = Object.values(json.frames)[0].sourceSize;
            // Without that slice the origin is the canvas's upper-left corner (Phaser's default is its centre).
            if (key?.pivot) sprite.setOrigin((key.bounds.x + key.pivot.x) / size.w, (key.bounds.y + key.pivot.y) / size.h);
            else sprite.setOrigin(0, 0);
          }
          let i = -1;
          const next = () => {
            i++;
            if (i > 0) {
              const rows = readGlTopFirst(game.renderer.gl, width, height);
              out.results.push({ pixels: toBase64(rows), origin: [sprite.originX, sprite.originY] });
            }
            if (i >= checks.length) {
              game.events.off('postrender', step);
              game.destroy(true);
              resolve(out);
              return;
            }
            const c = checks[i];
            if (kind === 'aseprite') {
              sprite.play(c.anim);
              const anim = sprite.anims.currentAnim;
              sprite.anims.pause(anim.frames[c.frame]);
            } else {
              sprite.setFrame(c.frameName);
            }
            sprite.setPosition(c.x, c.y);
          };
          const step = () => {
            try {
              next();
            } catch (e) {
              game.events.off('postrender', step);
              reject(e);
            }
          };
          game.events.on('postrender', step);
        },
      },
    });
  });
