import { useTranslation } from 'react-i18next';

/**
 * The header row of a table of figures: a column of names, then columns of numbers, right-aligned
 * as their cells are. Labels are `<prefix>.<column>`.
 */
export function FiguresHead({ prefix, first, figures }: { prefix: string; first: string; figures: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <thead>
      <tr>
        <th>{t(`${prefix}.${first}`)}</th>
        {figures.map((column) => (
          <th key={column} className="num">
            {t(`${prefix}.${column}`)}
          </th>
        ))}
      </tr>
    </thead>
  );
}
