/**
 * One-of-several choices: a radio group, or a checkbox whose widgets carry
 * different on-states (MD VR-181's `odo`: `excess` on one box, `not_actual`
 * on the other, no radio flag) which readers treat the same way.
 */
import { PDFCheckBox, PDFDict, PDFName, PDFRadioGroup, type PDFField } from 'pdf-lib';

function widgetStates(f: PDFCheckBox): string[] {
  return f.acroField
    .getWidgets()
    .map((w) => w.getOnValue()?.decodeText() ?? '')
    .filter(Boolean);
}

/** The options of a radio group or a several-state checkbox; undefined for any other field. */
export function choiceOptions(f: PDFField): string[] | undefined {
  if (f instanceof PDFRadioGroup) return f.getOptions();
  if (f instanceof PDFCheckBox) {
    const states = widgetStates(f);
    return new Set(states).size > 1 ? states : undefined;
  }
  return undefined;
}

/** The option chosen, or undefined. */
export function choiceSelected(f: PDFField): string | undefined {
  if (f instanceof PDFRadioGroup) return f.getSelected();
  if (f instanceof PDFCheckBox) {
    const v = f.acroField.dict.lookup(PDFName.of('V'));
    const name = v instanceof PDFName ? v.decodeText() : undefined;
    return name && name !== 'Off' ? name : undefined;
  }
  return undefined;
}

/** Chooses an option (undefined: none); each widget shows on only for its own state. */
export function choose(f: PDFField, option: string | undefined): void {
  if (f instanceof PDFRadioGroup) {
    if (option === undefined) f.clear();
    else f.select(option);
    return;
  }
  if (!(f instanceof PDFCheckBox)) throw new Error(`'${f.getName()}' is not a choice`);
  f.acroField.dict.set(PDFName.of('V'), PDFName.of(option ?? 'Off'));
  for (const w of f.acroField.getWidgets()) {
    const on = w.getOnValue()?.decodeText();
    (w.dict as PDFDict).set(PDFName.of('AS'), PDFName.of(on !== undefined && on === option ? on : 'Off'));
  }
}
