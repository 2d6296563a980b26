/**
 * Text field and checkbox appearances as pdf-lib's default providers draw
 * them (the same operators), with the default-appearance strings (`/DA`)
 * parsed once per distinct string: pdf-lib parses each field's and each
 * widget's `/DA` with a backtracking regular expression on every update,
 * which was a tenth of a large form's fill. A form has a few distinct `/DA`
 * strings, so the parse is memoized by the string.
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
  rotateInPlace,
  setFillingColor,
  setFontAndSize,
  type AppearanceProviderFor,
  type Color,
  type PDFCheckBox,
  type PDFFont,
  type PDFOperator,
  type PDFTextField,
  type PDFWidgetAnnotation,
} from 'pdf-lib';

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

/** pdf-lib's defaultTextFieldAppearanceProvider, with the `/DA` parse memoized. */
export const textAppearance: AppearanceProviderFor<PDFTextField> = (field, widget, font) => {
  const widgetDa = daOf(widget);
  const fieldDa = daOf(field.acroField);
  const { ap, borderWidth, width, height, rotate } = frame(widget);
  const text = field.getText() ?? '';
  const padding = field.isCombed() ? 0 : 1;
  const inset = borderWidth + padding;
  const bounds = { x: inset, y: inset, width: width - inset * 2, height: height - inset * 2 };
  const fontSize0 = widgetDa.size ?? fieldDa.size;
  let textLines;
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
  const operators: PDFOperator[] = drawTextField({
    x: borderWidth / 2,
    y: borderWidth / 2,
    width: width - borderWidth,
    height: height - borderWidth,
    borderWidth,
    borderColor: componentsToColor(ap?.getBorderColor()),
    textColor,
    font: font.name,
    fontSize,
    color: componentsToColor(ap?.getBackgroundColor()),
    textLines,
    padding,
  });
  return [...rotate, ...operators];
};

/** pdf-lib's defaultCheckBoxAppearanceProvider, with the `/DA` parse memoized. */
export const checkBoxAppearance: AppearanceProviderFor<PDFCheckBox> = (box, widget) => {
  const widgetColor = daOf(widget).color;
  const markColor = widgetColor ?? daOf(box.acroField).color ?? BLACK;
  setDa(widgetColor ? widget : box.acroField, markColor, undefined);
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
};
