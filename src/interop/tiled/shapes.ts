/**
 * Tiled's shape, point and text objects drawn as Tiled 1.8's
 * OrthogonalRenderer::drawMapObject draws them (and so tmxrasterizer, which
 * turns antialiasing on for shapes whatever its options): a black shadow
 * one pixel down and right, a fill in the object's colour at alpha 50
 * (rectangles, ellipses, polygons with the even-odd rule; not polylines), a
 * 2-pixel outline with round caps and joins, an 8-pixel dot on a polygon's
 * or polyline's first point, a pin for a point (painted pixel for pixel as
 * Qt 5.15 paints them, by src/render/qtraster.ts; the outlines of
 * src/render/path.ts only give the box each covers); a rectangle or ellipse of
 * no size as a 20 × 20 one centred on its place. The colour is the object
 * layer's `color`, else gray #a0a0a4 (tmxrasterizer reads no object types,
 * so a type's colour never applies); the layer's opacity multiplies each
 * pen and brush (its tint is for tiles only). Text objects are drawn with
 * sprat's own 3 × 5 font (src/render/font.ts) in the object's box, colour,
 * alignment and wrap: where the text goes, not Tiled's (Qt's) pixels.
 */
import type { Budget } from '../../binary/limits.js';
import type { Rect } from '../../render/compose.js';
import { drawText, GLYPH_ADVANCE, GLYPH_HEIGHT, LINE_HEIGHT, textWidth } from '../../render/font.js';
import { createImage, type RgbaImage } from '../../render/image.js';
import { compose, type Matrix, rotate, translate } from '../../render/matrix.js';
import {
  arcTo,
  ellipsePath,
  type FillRule,
  flattenPath,
  linePath,
  type Path,
  type Point,
  type Polygons,
  polygonsBounds,
  strokePath,
  transformPath,
} from '../../render/path.js';
import { type DrawCost, type PicturePart, spendDrawCost } from '../../render/pipeline.js';
import { QPainterPathBuilder, QtPainter } from '../../render/qtraster.js';

/**
 * Paints a shape or point object as tmxrasterizer does: the painter's matrix built as its drawMapLayers
 * and OrthogonalRenderer::drawMapObject build it (the layer's offset, the rotation about the object's
 * place, the place), then the shadow, fill and outline calls of drawMapObject / drawPointObject.
 */
function paintShape(
  p: QtPainter,
  o: J,
  colour: Rgba,
  pos: { x: number; y: number },
  offset: { x: number; y: number },
  rotation: number,
): void {
  p.matrix.translate(offset.x, offset.y);
  if (rotation !== 0) {
    p.matrix.translate(pos.x, pos.y);
    p.matrix.rotate(rotation);
    p.matrix.translate(-pos.x, -pos.y);
  }
  p.matrix.translate(pos.x, pos.y);
  const line = { colour, width: LINE };
  const shadow = { colour: BLACK, width: LINE };
  const brush: Rgba = [colour[0], colour[1], colour[2], 50];
  const s = LINE / 2;
  let w = num(o.width);
  let h = num(o.height);
  let kind = shapeOf(o);
  if (kind === 'ellipse' && (w === 0) !== (h === 0)) kind = 'rectangle';
  let x = 0;
  let y = 0;
  if ((kind === 'rectangle' || kind === 'ellipse') && w === 0 && h === 0) [x, y, w, h] = [-10, -10, 20, 20];
  switch (kind) {
    case 'rectangle':
    case 'ellipse': {
      const draw = (dx: number) => (kind === 'rectangle' ? p.drawRect(x + dx, y + dx, w, h) : p.drawEllipse(x + dx, y + dx, w, h));
      p.pen = shadow;
      p.brush = null;
      draw(s);
      p.pen = line;
      p.brush = brush;
      draw(0);
      break;
    }
    case 'polygon':
    case 'polyline': {
      const pts = points(kind === 'polygon' ? o.polygon : o.polyline);
      if (!pts.length) break;
      const flat = pts.flat();
      const moved = pts.flatMap(([a, b]) => [a + s, b + s]);
      const closed = kind === 'polygon';
      p.pen = shadow;
      p.brush = null;
      p.drawPolygon(moved, closed);
      p.pen = { colour: BLACK, width: LINE * 4 };
      p.drawPoint(pts[0]![0] + s, pts[0]![1] + s);
      p.pen = line;
      p.brush = brush;
      p.drawPolygon(flat, closed);
      p.pen = { colour, width: LINE * 4 };
      p.drawPoint(pts[0]![0], pts[0]![1]);
      break;
    }
    case 'point': {
      const r = POINT_RADIUS;
      const sweep = 235;
      const start = 90 - sweep / 2;
      const path = new QPainterPathBuilder()
        .moveTo(r * Math.cos((start * Math.PI) / 180), -r * Math.sin((start * Math.PI) / 180))
        .arcTo(-r, -r, r * 2, r * 2, start, sweep)
        .lineTo(0, 2 * r)
        .closeSubpath();
      p.matrix.translate(0, -2 * r);
      p.pen = shadow;
      p.brush = null;
      p.drawPath(path.translated(s, s));
      p.pen = line;
      p.brush = brush;
      p.drawPath(path.ops);
      p.brush = colour;
      const small = r / 3;
      p.drawEllipse(-small, -small, small * 2, small * 2);
      break;
    }
    default:
      break;
  }
}

type J = Record<string, unknown>;
type Rgba = [number, number, number, number];
const num = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const isObj = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Qt::gray, Tiled's colour for objects of a layer without one. */
export const DEFAULT_OBJECT_COLOUR: Rgba = [160, 160, 164, 255];
const BLACK: Rgba = [0, 0, 0, 255];
/** Tiled's object line width (MapRenderer's default), its thick points' (× 4) and the pin's radius. */
const LINE = 2;
const POINT_RADIUS = 10;

/** One fill of polygons in device (picture) coordinates. */
interface Fill {
  polys: Polygons;
  rule: FillRule;
  colour: Rgba;
}

/** The kind of a non-tile object, as Tiled 1.8 reads it. */
export function shapeOf(o: J): 'rectangle' | 'ellipse' | 'polygon' | 'polyline' | 'point' | 'text' {
  if (o.ellipse === true) return 'ellipse';
  if (o.point === true) return 'point';
  if (Array.isArray(o.polygon)) return 'polygon';
  if (Array.isArray(o.polyline)) return 'polyline';
  if (isObj(o.text)) return 'text';
  return 'rectangle';
}

function points(v: unknown): Point[] {
  return (Array.isArray(v) ? v : []).filter(isObj).map((p): Point => [num(p.x), num(p.y)]);
}

/**
 * The fills that draw a shape or point object whose local coordinates (its place at (0, 0)) map to the
 * picture by `m`, in order.
 */
function shapeFills(o: J, colour: Rgba, m: Matrix): Fill[] {
  const fills: Fill[] = [];
  const shadow = compose(translate(LINE / 2, LINE / 2), m);
  const brush: Rgba = [colour[0], colour[1], colour[2], 50];
  // Pens are cosmetic: stroked in picture pixels, after the object's transform.
  const stroke = (p: Path, c: Rgba, at = m, width = LINE, fine = false) =>
    fills.push({ polys: strokePath(transformPath(p, at), width, fine), rule: 'nonzero', colour: c });
  const fill = (p: Path, rule: FillRule, c: Rgba) => fills.push({ polys: [flattenPath(transformPath(p, m))], rule, colour: c });
  let w = num(o.width);
  let h = num(o.height);
  let kind = shapeOf(o);
  if (kind === 'ellipse' && (w === 0) !== (h === 0)) kind = 'rectangle'; // as Tiled: a flat ellipse is a rectangle
  let x = 0;
  let y = 0;
  if ((kind === 'rectangle' || kind === 'ellipse') && w === 0 && h === 0) [x, y, w, h] = [-10, -10, 20, 20];
  switch (kind) {
    case 'rectangle':
    case 'ellipse': {
      const outline =
        kind === 'ellipse'
          ? ellipsePath(x, y, w, h)
          : linePath(
              [
                [x, y],
                [x + w, y],
                [x + w, y + h],
                [x, y + h],
              ],
              true,
            );
      // Qt draws a rectangle's corners round to their true area; other joins as flat as their paths.
      const fine = kind === 'rectangle';
      stroke(outline, BLACK, shadow, LINE, fine);
      fill(outline, 'nonzero', brush);
      stroke(outline, colour, m, LINE, fine);
      break;
    }
    case 'polygon':
    case 'polyline': {
      const pts = points(kind === 'polygon' ? o.polygon : o.polyline);
      if (!pts.length) break;
      const path = linePath(pts, kind === 'polygon');
      const first = linePath([pts[0]!], false);
      stroke(path, BLACK, shadow);
      stroke(first, BLACK, shadow, LINE * 4);
      if (kind === 'polygon') fill(path, 'evenodd', brush);
      stroke(path, colour);
      stroke(first, colour, m, LINE * 4);
      break;
    }
    case 'point': {
      // The pin: 235° of a circle of radius 10 round (0, -20), closed by two lines down to the place.
      const r = POINT_RADIUS;
      const a0 = ((235 / 2 - 90) * Math.PI) / 180; // lower right, going up and round
      const pin: Path = { start: [r * Math.cos(a0), r * Math.sin(a0) - 2 * r], segments: [], closed: true };
      arcTo(pin, 0, -2 * r, r, r, a0, a0 - (235 * Math.PI) / 180);
      pin.segments.push({ to: [0, 0] });
      stroke(pin, BLACK, shadow);
      fill(pin, 'nonzero', brush);
      stroke(pin, colour);
      const dot = ellipsePath(-r / 3, -r / 3 - 2 * r, (2 * r) / 3, (2 * r) / 3);
      fill(dot, 'nonzero', colour);
      stroke(dot, colour);
      break;
    }
    default:
      break;
  }
  return fills;
}

/** Text lines as Tiled lays them out in a box `width` wide: its lines, each wrapped at spaces (or anywhere) when `wrap`. */
function textLines(text: string, width: number, wrap: boolean): string[] {
  const per = Math.max(1, Math.floor((width + 1) / GLYPH_ADVANCE));
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!wrap || [...line].length <= per) {
      out.push(line);
      continue;
    }
    let cur = '';
    for (const word of line.split(' ')) {
      let wd = word;
      const next = cur ? `${cur} ${wd}` : wd;
      if ([...next].length <= per) {
        cur = next;
        continue;
      }
      if (cur) out.push(cur);
      while ([...wd].length > per) {
        out.push([...wd].slice(0, per).join(''));
        wd = [...wd].slice(per).join('');
      }
      cur = wd;
    }
    out.push(cur);
  }
  return out;
}

/** A text object's picture in its own box (local coordinates: the box's top-left at (0, 0)) and where it sits. */
function textImage(o: J, colour: Rgba, budget: Budget): { image: RgbaImage; x: number; y: number } | undefined {
  const t = o.text as J;
  const text = typeof t.text === 'string' ? t.text : '';
  if (!text) return undefined;
  const w = Math.max(0, num(o.width));
  const h = Math.max(0, num(o.height));
  const lines = textLines(text, w, t.wrap === true);
  const tw = lines.reduce((m, l) => Math.max(m, textWidth(l)), 0);
  const th = (lines.length - 1) * LINE_HEIGHT + GLYPH_HEIGHT;
  const halign = typeof t.halign === 'string' ? t.halign : 'left';
  const valign = typeof t.valign === 'string' ? t.valign : 'top';
  const top = valign === 'bottom' ? h - th : valign === 'center' ? (h - th) / 2 : 0;
  const lineX = (line: string) => {
    const lw = textWidth(line);
    return halign === 'right' ? w - lw : halign === 'center' ? (w - lw) / 2 : 0;
  };
  const x0 = Math.floor(lines.reduce((m, l) => Math.min(m, lineX(l)), 0));
  const y0 = Math.floor(Math.min(0, top));
  const iw = Math.ceil(lines.reduce((m, l) => Math.max(m, lineX(l) + textWidth(l)), Math.max(w, tw))) - x0;
  const ih = Math.ceil(Math.max(h, top + th)) - y0;
  if (iw <= 0 || ih <= 0) return undefined;
  budget.spend('maxPixels', iw * ih, `text object ${num(o.id)} (${iw}x${ih})`);
  const image = createImage(iw, ih);
  lines.forEach((line, i) => {
    drawText(image, Math.round(lineX(line)) - x0, Math.round(top) + i * LINE_HEIGHT - y0, line, colour);
  });
  return { image, x: x0, y: y0 };
}

/**
 * The part that draws a shape, point or text object, or undefined when it draws nothing on the canvas.
 * `colour` is the object's colour (a text object's: its text's). `at` is the object's place in the picture (its layer's offsets added), `rotation` its rotation about
 * that place, `opacity` its layer's. Shapes are painted into an image the size of what they cover
 * (clipped to the canvas, spent from maxPixels), each pen and brush at the layer's opacity as Qt paints
 * them; the part is drawn at full opacity.
 */
export function shapeObjectPart(
  o: J,
  colour: Rgba,
  at: { x: number; y: number },
  rotation: number,
  opacity: number,
  canvas: Rect,
  budget: Budget,
  layer: number | undefined,
  offset: { x: number; y: number } = { x: 0, y: 0 },
): PicturePart | undefined {
  const m = compose(rotate(rotation), translate(at.x, at.y));
  if (shapeOf(o) === 'text') {
    const t = textImage(o, colour, budget);
    if (!t) return undefined;
    return { image: t.image, transform: compose(translate(t.x, t.y), m), opacity, layer };
  }
  const fills = shapeFills(o, colour, m);
  const b = polygonsBounds(fills.flatMap((f) => f.polys));
  if (!b) return undefined;
  const x0 = Math.max(canvas.x, b.x0 - 1);
  const y0 = Math.max(canvas.y, b.y0 - 1);
  const x1 = Math.min(canvas.x + canvas.width, b.x1 + 1);
  const y1 = Math.min(canvas.y + canvas.height, b.y1 + 1);
  if (x1 <= x0 || y1 <= y0) return undefined;
  {
    // Painted straight onto the frame as Qt paints it (the image only gives the box it covers).
    // Qt's device is tmxrasterizer's image: the canvas, picture point (canvas.x, canvas.y) at (0, 0).
    const clip = { x0: 0, y0: 0, x1: canvas.width, y1: canvas.height };
    const pos = { x: num(o.x), y: num(o.y) };
    const paintWith = (p: QtPainter, partOpacity: number) => {
      // tmxrasterizer's translate by the margins that layer offsets add round the map.
      p.matrix.translate(-canvas.x, -canvas.y);
      p.opacity = opacity * partOpacity;
      paintShape(p, o, colour, pos, offset, rotation);
    };
    const paint = (dst: RgbaImage, dx: number, dy: number, partOpacity: number) => {
      paintWith(new QtPainter(dst, dx - canvas.x, dy - canvas.y, clip), partOpacity);
    };
    /** What painting it costs (the painter's calls, measured without painting), spent by the pipeline before it paints. */
    const cost = (limit = Number.POSITIVE_INFINITY) => {
      const c: DrawCost = { pixels: 0, work: 0 };
      const measure = new QtPainter(
        createImage(0, 0),
        0,
        0,
        clip,
        (key, n) => {
          if (key === 'maxWork') c.work += n;
          else c.pixels += n;
        },
        true,
        () => c.work > limit,
      );
      paintWith(measure, 1);
      return c;
    };
    const box = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    const image = {
      width: box.w,
      height: box.h,
      pixels: () => {
        spendDrawCost(budget, cost(), `drawing object ${num(o.id)}`);
        const img = createImage(box.w, box.h);
        paint(img, box.x, box.y, 1);
        return img;
      },
    };
    return { image, transform: translate(x0, y0), layer, paint, cost };
  }
}
