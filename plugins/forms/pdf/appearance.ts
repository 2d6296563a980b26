/**
 * Text field and checkbox appearances as pdf-lib's default providers draw
 * them (the same operators), with the default-appearance strings (`/DA`)
 * parsed once per distinct string: pdf-lib parses each field's and each
 * widget's `/DA` with a backtracking regular expression on every update,
 * which was a tenth of a large form's fill. A form has a few distinct `/DA`
 * strings, so the parse is memoized by the string. A checkbox's appearances
 * do not depend on its value: their contents are made once per look (size,
 * border, colors) and every fill gets streams of those bytes.
 */
import {
  adjustDimsForRotation,
  cmyk,
  componentsToColor,
  drawCheckBox,
  drawTextField,
  grayscale,
  layoutCombedText,
  layoutMultilineText,
  layoutSinglelineText,
  reduceRotation,
  rgb,
  rotateAndSkewTextRadiansAndTranslate,
  rotateInPlace,
  setFillingColor,
  setFontAndSize,
  showText,
  PDFContentStream,
  PDFName,
  type Color,
  type PDFCheckBox,
  type PDFContext,
  type PDFHexString,
  type PDFFont,
  type PDFOperator,
  type PDFTextField,
  type PDFWidgetAnnotation,
} from 'pdf-lib';
import { finishContents, rawStream } from './document.js';

type DaHolder = { getDefaultAppearance(): string | undefined; setDefaultAppearance(da: string): void };

// pdf-lib's own expressions (api/form/appearances.js), applied the way its findLastMatch does
const TF = /\/([^\0\t\n\f\r ]+)[\0\t\n\f\r ]+(\d*\.\d+|\d+)[\0\t\n\f\r ]+Tf/;
const COLOR =
  /(\d*\.\d+|\d+)[\0\t\n\f\r ]*(\d*\.\d+|\d+)?[\0\t\n\f\r ]*(\d*\.\d+|\d+)?[\0\t\n\f\r ]*(\d*\.\d+|\d+)?[\0\t\n\f\r ]+(g|rg|k)/;

function lastMatch(value: string, regex: RegExp): RegExpMatchArray | undefined {
  let position = 0;
  let last: RegExpMatchArray | undefined;
  while (position < value.length) {
    const match = value.substring(position).match(regex);
    if (!match) return last;
    last = match;
    position += match.index! + match[0].length;
  }
  return last;
}

interface Parsed {
  color?: Color;
  size?: number;
}
const parsedDa = new Map<string, Parsed>();

function parseDa(da: string): Parsed {
  let hit = parsedDa.get(da);
  if (hit) return hit;
  const size = Number((lastMatch(da, TF) ?? [])[2]);
  const [, c1, c2, c3, c4, space] = lastMatch(da, COLOR) ?? [];
  let color: Color | undefined;
  if (space === 'g' && c1) color = grayscale(Number(c1));
  else if (space === 'rg' && c1 && c2 && c3) color = rgb(Number(c1), Number(c2), Number(c3));
  else if (space === 'k' && c1 && c2 && c3 && c4) color = cmyk(Number(c1), Number(c2), Number(c3), Number(c4));
  hit = { color, size: Number.isFinite(size) ? size : undefined };
  if (parsedDa.size < 10_000) parsedDa.set(da, hit);
  return hit;
}

const daOf = (holder: DaHolder): Parsed => parseDa(holder.getDefaultAppearance() ?? '');

function setDa(holder: DaHolder, color: Color, font: PDFFont | undefined, size = 0): void {
  holder.setDefaultAppearance(
    [setFillingColor(color).toString(), setFontAndSize(font?.name ?? 'dummy__noop', size).toString()].join('\n'),
  );
}

const BLACK = rgb(0, 0, 0);

/** The widget's frame: rotation operators, size, border, colors (as pdf-lib's providers compute them). */
function frame(widget: PDFWidgetAnnotation) {
  const rectangle = widget.getRectangle();
  const ap = widget.getAppearanceCharacteristics();
  const borderWidth = widget.getBorderStyle()?.getWidth() ?? 0;
  const rotation = reduceRotation(ap?.getRotation());
  const { width, height } = adjustDimsForRotation(rectangle, rotation);
  const rotate = rotateInPlace({ ...rectangle, rotation });
  return { ap, borderWidth, width, height, rotate };
}

/** How pdf-lib's text field provider lays a widget's value out: lines, font size, color (`/DA` updated as it does). */
function layoutText(field: PDFTextField, widget: PDFWidgetAnnotation, font: PDFFont) {
  const widgetDa = daOf(widget);
  const fieldDa = daOf(field.acroField);
  const f = frame(widget);
  const text = field.getText() ?? '';
  const padding = field.isCombed() ? 0 : 1;
  const inset = f.borderWidth + padding;
  const bounds = { x: inset, y: inset, width: f.width - inset * 2, height: f.height - inset * 2 };
  const fontSize0 = widgetDa.size ?? fieldDa.size;
  let textLines: TextPosition[];
  let fontSize: number;
  if (field.isMultiline()) {
    const l = layoutMultilineText(text, { alignment: field.getAlignment(), fontSize: fontSize0, font, bounds });
    [textLines, fontSize] = [l.lines, l.fontSize];
  } else if (field.isCombed()) {
    const cellCount = field.getMaxLength() ?? 0;
    const l = layoutCombedText(text, { fontSize: fontSize0, font, bounds, cellCount });
    [textLines, fontSize] = [l.cells, l.fontSize];
  } else {
    const l = layoutSinglelineText(text, { alignment: field.getAlignment(), fontSize: fontSize0, font, bounds });
    [textLines, fontSize] = [[l.line], l.fontSize];
  }
  const textColor = widgetDa.color ?? fieldDa.color ?? BLACK;
  setDa(widgetDa.color || widgetDa.size !== undefined ? widget : field.acroField, textColor, font, fontSize);
  return { ...f, padding, textLines, fontSize, textColor };
}
type TextPosition = { encoded: PDFHexString; x: number; y: number };

/**
 * A text appearance's operators before and after its lines (frame, clip,
 * marked content, text state), as pdf-lib's drawTextField writes them, by
 * look: they depend on the widget, the font and the size, not the value.
 */
const textFrames = new Map<string, { before: Uint8Array; after: Uint8Array }>();

function textFrame(t: ReturnType<typeof layoutText>, font: PDFFont, ctx: PDFContext) {
  const border = componentsToColor(t.ap?.getBorderColor());
  const background = componentsToColor(t.ap?.getBackgroundColor());
  const key =
    JSON.stringify([t.width, t.height, t.borderWidth, t.padding, t.fontSize, font.name, t.textColor]) +
    JSON.stringify([border, background, t.rotate.map(String)]);
  let hit = textFrames.get(key);
  if (hit) return hit;
  const ops = drawTextField({
    x: t.borderWidth / 2,
    y: t.borderWidth / 2,
    width: t.width - t.borderWidth,
    height: t.height - t.borderWidth,
    borderWidth: t.borderWidth,
    borderColor: border,
    textColor: t.textColor,
    font: font.name,
    fontSize: t.fontSize,
    color: background,
    textLines: [],
    padding: t.padding,
  });
  // with no lines, text ends right after its state: the lines go in before the end-text operator
  const at = ops.findIndex((o) => o.toString() === 'ET');
  hit = { before: plainOf(ctx, [...t.rotate, ...ops.slice(0, at)]), after: plainOf(ctx, ops.slice(at)) };
  if (textFrames.size < 10_000) textFrames.set(key, hit);
  return hit;
}

const plainOf = (ctx: PDFContext, ops: PDFOperator[]) =>
  PDFContentStream.of(ctx.obj({}), ops, false).getUnencodedContents();

/**
 * Draws a text field's appearance as pdf-lib's defaultUpdateAppearances(font)
 * does (the same default appearance update, the same stream, finished as
 * freezeStreams finishes it): the frame's operators are made once per look,
 * only the lines of text per fill.
 */
export function updateTextField(field: PDFTextField, font: PDFFont): void {
  for (const widget of field.acroField.getWidgets()) {
    const ctx = widget.dict.context;
    const t = layoutText(field, widget, font);
    const { before, after } = textFrame(t, font, ctx);
    const lines = plainOf(
      ctx,
      t.textLines.flatMap((l) => [rotateAndSkewTextRadiansAndTranslate(0, 0, 0, l.x, l.y), showText(l.encoded)]),
    );
    const rect = widget.getRectangle();
    const dict = ctx.obj({
      BBox: [0, 0, rect.width, rect.height],
      Matrix: [1, 0, 0, 1, 0, 0],
      Resources: { Font: { [font.name]: font.ref } },
      Type: 'XObject',
      Subtype: 'Form',
    });
    const stream = rawStream(dict, finishContents(Buffer.concat([before, lines, after])));
    widget.setNormalAppearance(ctx.register(stream));
    widget.removeRolloverAppearance();
    widget.removeDownAppearance();
  }
}

/** The finished contents of a checkbox widget's four appearances (normal and down, on and off). */
interface BoxContents {
  normal: { on: Finished; off: Finished };
  down: { on: Finished; off: Finished };
}
type Finished = ReturnType<typeof finishContents>;
/** By everything pdf-lib's checkbox appearance depends on: they do not depend on the value, so one set serves every fill. */
const boxContents = new Map<string, BoxContents>();

/** The operators of pdf-lib's defaultCheckBoxAppearanceProvider for a widget, drawn with `markColor`. */
function drawBox(widget: PDFWidgetAnnotation, markColor: Color): { normal: Ops; down: Ops } {
  const { ap, borderWidth, width, height, rotate } = frame(widget);
  const options = {
    x: borderWidth / 2,
    y: borderWidth / 2,
    width: width - borderWidth,
    height: height - borderWidth,
    thickness: 1.5,
    borderWidth,
    borderColor: componentsToColor(ap?.getBorderColor()) ?? BLACK,
    markColor,
  };
  const normal = componentsToColor(ap?.getBackgroundColor());
  const down = componentsToColor(ap?.getBackgroundColor(), 0.8);
  const draw = (color: Color | undefined, filled: boolean) => [
    ...rotate,
    ...drawCheckBox({ ...options, color, filled }),
  ];
  return {
    normal: { on: draw(normal, true), off: draw(normal, false) },
    down: { on: draw(down, true), off: draw(down, false) },
  };
}
type Ops = { on: PDFOperator[]; off: PDFOperator[] };

const contentsOf = (ctx: PDFContext, ops: PDFOperator[]) => finishContents(plainOf(ctx, ops));

/**
 * Draws a checkbox's appearances as pdf-lib's defaultUpdateAppearances does
 * (the same default appearance update, the same streams, finished as
 * freezeStreams finishes them), from contents made once per widget look.
 */
export function updateCheckBox(box: PDFCheckBox): void {
  for (const widget of box.acroField.getWidgets()) {
    const onValue = widget.getOnValue() ?? PDFName.of('Yes');
    const widgetColor = daOf(widget).color;
    const markColor = widgetColor ?? daOf(box.acroField).color ?? BLACK;
    setDa(widgetColor ? widget : box.acroField, markColor, undefined);
    const rect = widget.getRectangle();
    const mk = widget.getAppearanceCharacteristics();
    const key = JSON.stringify([
      rect.width,
      rect.height,
      mk?.getRotation(),
      widget.getBorderStyle()?.getWidth(),
      mk?.getBorderColor(),
      mk?.getBackgroundColor(),
      markColor,
    ]);
    const ctx = widget.dict.context;
    let contents = boxContents.get(key);
    if (!contents) {
      const ops = drawBox(widget, markColor);
      const pair = (o: Ops) => ({ on: contentsOf(ctx, o.on), off: contentsOf(ctx, o.off) });
      contents = { normal: pair(ops.normal), down: pair(ops.down) };
      if (boxContents.size < 10_000) boxContents.set(key, contents);
    }
    const stream = (c: Finished) =>
      ctx.register(
        rawStream(
          ctx.obj({
            BBox: [0, 0, rect.width, rect.height],
            Matrix: [1, 0, 0, 1, 0, 0],
            Type: 'XObject',
            Subtype: 'Form',
          }),
          c,
        ),
      );
    const states = (c: { on: Finished; off: Finished }) => {
      const dict = ctx.obj({});
      dict.set(onValue, stream(c.on));
      dict.set(PDFName.of('Off'), stream(c.off));
      return dict;
    };
    widget.setNormalAppearance(states(contents.normal));
    widget.removeRolloverAppearance();
    widget.setDownAppearance(states(contents.down));
  }
}
