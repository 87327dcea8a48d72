import type { TFunction } from 'i18next';
import type { SizeProblem } from '../../model/actions/size-field.ts';
import { exactBytes } from '../../model/format.ts';

/** A size problem as a sentence, followed by what is allowed where the syntax was at fault. */
export function sizeProblemText(t: TFunction, problem: SizeProblem): string {
  const help = t('actions.size.help');
  switch (problem.code) {
    case 'empty':
      return `${t('actions.size.empty')} ${help}`;
    case 'syntax':
      return `${t('actions.size.syntax', { text: problem.text })} ${help}`;
    case 'unit': {
      const options = problem.suggestions.map((item) => `${item.text} (${exactBytes(item.bytes)})`).join(t('actions.size.or'));
      const guess = options === '' ? '' : ` ${t('actions.size.didYouMean', { options })}`;
      return `${t('actions.size.unit', { unit: problem.unit })}${guess} ${help}`;
    }
    case 'fraction':
      return t('actions.size.fraction', { text: problem.text });
    case 'too-large':
      return t('actions.size.tooLarge', { text: problem.text });
    case 'below-min':
      return t('actions.size.belowMin', { min: problem.min });
    case 'multiple':
      return t('actions.size.multiple', { multiple: exactBytes(problem.multiple) });
  }
}
